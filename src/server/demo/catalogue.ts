import type { DeviceModelCreateBody } from '../../contracts/devices';
import { type PlanTerms, planCreateBody } from '../../contracts/plans';

/** What the demo lender sells and on which terms (prices in KES minor units). */
export interface DemoModel {
  key: string;
  body: DeviceModelCreateBody;
  serialPrefix: string;
  /** Relative share of the inventory. */
  weight: number;
}

export interface DemoPlan {
  terms: PlanTerms;
}

const model = (
  key: string,
  make: string,
  name: string,
  category: DeviceModelCreateBody['category'],
  retailShillings: number,
  costShillings: number,
  controlKind: DeviceModelCreateBody['controlKind'],
  serialPrefix: string,
  weight: number,
): DemoModel => ({
  key,
  body: {
    make,
    model: name,
    category,
    retailPrice: retailShillings * 100,
    costPrice: costShillings * 100,
    controlKind,
    sku: key.toUpperCase(),
  },
  serialPrefix,
  weight,
});

export function demoCatalogue(): { models: DemoModel[]; plans: DemoPlan[] } {
  return {
    models: [
      model('sm-a15', 'Samsung', 'Galaxy A15', 'smartphone', 22_999, 18_400, 'lock_api', 'SMA15', 5),
      model('tc-spark20', 'Tecno', 'Spark 20', 'smartphone', 16_499, 12_900, 'lock_api', 'TSP20', 5),
      model('it-a70', 'itel', 'A70', 'smartphone', 9_999, 7_600, 'lock_api', 'ITA70', 4),
      model('nk-g22', 'Nokia', 'G22', 'smartphone', 18_999, 15_100, 'lock_api', 'NKG22', 2),
      model('sk-home60', 'Sun King', 'Home 60', 'solar_home_system', 21_500, 15_800, 'openpaygo', 'SKH60', 4),
      model('dl-x850', 'd.light', 'X850', 'solar_home_system', 34_900, 26_200, 'openpaygo', 'DLX850', 2),
      model('hs-32a4', 'Hisense', '32A4 32" Smart TV', 'tv', 24_999, 19_300, 'none', 'HS32A4', 2),
      model('hp-14', 'HP', '14s Laptop', 'laptop', 54_999, 44_000, 'none', 'HP14S', 1),
    ],
    plans: [
      {
        terms: planCreateBody.parse({
          code: 'PHONE-DAILY',
          name: 'Smartphone daily',
          description: 'Pay a little every day; the phone is yours after the last instalment.',
          eligibleCategories: ['smartphone'],
          minDepositPercent: 10,
          frequency: 'daily',
          allowedTerms: [180, 270, 365],
          apr: 42,
          interestMethod: 'declining',
          installmentMultiple: 500,
          lateFeeKind: 'none',
          graceDays: 2,
          lockAfterDays: 3,
          defaultAfterDays: 90,
        }),
      },
      {
        terms: planCreateBody.parse({
          code: 'SOLAR-WEEKLY',
          name: 'Solar home weekly',
          description: 'Weekly payments; each payment sends a code that keeps the lights on.',
          eligibleCategories: ['solar_home_system'],
          minDepositPercent: 15,
          frequency: 'weekly',
          allowedTerms: [26, 52, 78],
          apr: 36,
          interestMethod: 'declining',
          installmentMultiple: 1000,
          serviceFee: 5000,
          lateFeeKind: 'none',
          graceDays: 3,
          lockAfterDays: 7,
          defaultAfterDays: 120,
        }),
      },
      {
        terms: planCreateBody.parse({
          code: 'HOME-MONTHLY',
          name: 'TV and laptop monthly',
          description: 'Monthly instalments for salaried customers.',
          eligibleCategories: ['tv', 'laptop', 'smartphone'],
          minDepositPercent: 20,
          frequency: 'monthly',
          allowedTerms: [6, 9, 12],
          apr: 30,
          interestMethod: 'flat',
          lateFeeKind: 'percent',
          lateFeeValue: 2,
          graceDays: 5,
          defaultAfterDays: 90,
          earlySettlementDiscountPercent: 50,
        }),
      },
    ],
  };
}

/** Customers' first names by gender, so that a customer's gender agrees with their name. */
export const FIRST_NAMES = {
  female: [
    'Wanjiru',
    'Achieng',
    'Njeri',
    'Akinyi',
    'Wambui',
    'Chebet',
    'Nafula',
    'Atieno',
    'Mumbua',
    'Zawadi',
    'Amani',
    'Halima',
    'Mercy',
    'Faith',
    'Grace',
    'Esther',
    'Joyce',
    'Mary',
    'Ann',
    'Purity',
  ],
  male: [
    'Kamau',
    'Otieno',
    'Kipchoge',
    'Mwangi',
    'Odhiambo',
    'Kiprono',
    'Wafula',
    'Mutua',
    'Baraka',
    'Juma',
    'Hassan',
    'Brian',
    'Kevin',
    'Dennis',
    'Peter',
    'John',
    'Samuel',
    'David',
    'Collins',
    'Emmanuel',
  ],
} as const;

export const LAST_NAMES = [
  'Mwangi',
  'Otieno',
  'Kamau',
  'Wanjiku',
  'Odhiambo',
  'Kiprop',
  'Mutua',
  'Njoroge',
  'Ochieng',
  'Wekesa',
  'Kariuki',
  'Chepkoech',
  'Omondi',
  'Njeri',
  'Mohamed',
  'Ali',
  'Kibet',
  'Muthoni',
  'Owino',
  'Barasa',
  'Korir',
  'Nyambura',
  'Onyango',
  'Gitau',
  'Rotich',
  'Achieng',
  'Macharia',
  'Wafula',
  'Kilonzo',
  'Langat',
] as const;

export const REGIONS = [
  'Nairobi',
  'Nairobi',
  'Nairobi',
  'Mombasa',
  'Kisumu',
  'Nakuru',
  'Eldoret',
  'Thika',
  'Machakos',
  'Nyeri',
  'Kakamega',
  'Meru',
  'Kisii',
  'Malindi',
] as const;
