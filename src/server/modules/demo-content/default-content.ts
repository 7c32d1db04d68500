import type { DemoContent } from '../../../contracts/demo';
import { minorUnitDigits } from '../../../domain';

/** Whole units of the organisation's currency as minor units. */
const units = (whole: number, currency: string) => whole * 10 ** minorUnitDigits(currency);

/** The catalogue's category a built-in demo device stands for. */
const CATALOGUE_CATEGORY: Record<string, string> = {
  phone: 'smartphone',
  'solar-kit': 'solar_home_system',
  tv: 'tv',
  laptop: 'laptop',
};

/**
 * What /demo shows before anyone publishes a version, so a fresh install has a working demo:
 * four typical pay-as-you-go devices and three plans. A device the lender's catalogue has a
 * model of (`catalogue`: the cheapest active model per category) takes that model's name and
 * price, so a shilling lender's demo does not offer a phone for 180 shillings; the others keep
 * their placeholder price in whole units of the organisation's currency.
 */
export function defaultDemoContent(
  currency: string,
  catalogue: ReadonlyArray<{ name: string; category: string; retailPrice: number }> = [],
): DemoContent {
  const content = builtIn(currency);
  for (const device of content.devices) {
    const model = catalogue.find((m) => m.category === CATALOGUE_CATEGORY[device.id]);
    if (model) Object.assign(device, { name: model.name, price: model.retailPrice });
  }
  return content;
}

function builtIn(currency: string): DemoContent {
  return {
    devices: [
      {
        id: 'phone',
        name: 'Smartphone A15',
        category: 'phone',
        price: units(180, currency),
        imageId: null,
        description: '6.5-inch screen, 64 GB, dual SIM. Locks remotely if payments stop.',
      },
      {
        id: 'solar-kit',
        name: 'Solar home kit 80 W',
        category: 'solar',
        price: units(350, currency),
        imageId: null,
        description: 'Panel, battery, four lights, phone charging and a radio.',
      },
      {
        id: 'tv',
        name: '32-inch solar TV',
        category: 'tv',
        price: units(420, currency),
        imageId: null,
        description: 'Low-power TV that runs on the solar kit, with free-to-air channels.',
      },
      {
        id: 'laptop',
        name: 'Student laptop 14"',
        category: 'laptop',
        price: units(650, currency),
        imageId: null,
        description: '8 GB memory, 256 GB storage, ten hours of battery.',
      },
    ],
    plans: [
      {
        id: 'daily',
        name: 'Pay daily',
        depositPercent: 10,
        frequency: 'daily',
        term: 365,
        apr: 36,
        interestMethod: 'declining',
      },
      {
        id: 'weekly',
        name: 'Pay weekly',
        depositPercent: 15,
        frequency: 'weekly',
        term: 52,
        apr: 30,
        interestMethod: 'declining',
      },
      {
        id: 'monthly',
        name: 'Pay monthly',
        depositPercent: 20,
        frequency: 'monthly',
        term: 12,
        apr: 24,
        interestMethod: 'declining',
      },
    ],
    texts: {
      title: 'Own a device, pay as you go',
      intro:
        'See how financing works in a few steps: choose a device and a plan, check the payments, and get the code that unlocks it. Nothing here is a real application.',
      steps: {
        device: { heading: 'Choose a device', help: 'Every device is yours once the plan is paid.' },
        plan: { heading: 'Choose how you pay', help: 'A small deposit today, then small regular payments.' },
        schedule: {
          heading: 'Your payments',
          help: 'Every instalment, with what goes to the price and to interest.',
        },
        kyc: { heading: 'Who you are', help: 'In a real application we check your ID and phone number.' },
        payment: { heading: 'Pay the deposit', help: 'Pay the deposit by mobile money to start.' },
        unlock: {
          heading: 'Your unlock code',
          help: 'Each payment sends a code by SMS; type it on the device to unlock it.',
        },
      },
      kycNote: 'This is a simulation: what you type is not sent or saved, and no account is opened.',
      closing: 'Ready for the real thing? Visit one of our agents with your ID and phone.',
    },
    heroImageId: null,
  };
}
