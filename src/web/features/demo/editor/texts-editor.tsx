import { DEMO_STEPS, type DemoStep, type DemoTexts } from '@/contracts/demo';
import { FormField } from '@/web/components/form-field';
import { Input } from '@/web/components/ui/input';
import { Textarea } from '@/web/components/ui/textarea';
import { STEP_LABELS } from '../step-progress';
import type { FieldErrors } from './form-model';
import { ImageField } from './image-field';

type Paragraph = 'intro' | 'kycNote' | 'closing';
const PARAGRAPHS: Array<{ field: Paragraph; label: string; hint: string }> = [
  { field: 'intro', label: 'Introduction', hint: 'Under the title, before the first step.' },
  { field: 'kycNote', label: 'KYC note', hint: 'Shown on the identity step: say that it is a simulation.' },
  { field: 'closing', label: 'Closing text', hint: 'Under the unlock code, at the end.' },
];

/** The demo's words: title, introduction, each step's heading and help, the KYC note, the close. */
export function TextsEditor({
  texts,
  heroImageId,
  errors,
  onChange,
  onHeroChange,
}: {
  texts: DemoTexts;
  heroImageId: string | null;
  errors: FieldErrors;
  onChange: (texts: DemoTexts) => void;
  onHeroChange: (imageId: string | null) => void;
}) {
  const setStep = (step: DemoStep, change: Partial<DemoTexts['steps'][DemoStep]>) =>
    onChange({ ...texts, steps: { ...texts.steps, [step]: { ...texts.steps[step], ...change } } });
  return (
    <div className="grid grid-cols-1 gap-4">
      <FormField id="texts-title" label="Title" error={errors['texts.title']}>
        {(control) => (
          <Input
            {...control}
            value={texts.title}
            onChange={(event) => onChange({ ...texts, title: event.target.value })}
            data-testid="input-texts-title"
          />
        )}
      </FormField>
      <ImageField
        label="Picture at the top (optional)"
        imageId={heroImageId}
        onChange={onHeroChange}
        error={errors.heroImageId}
        testId="hero-image"
      />
      {PARAGRAPHS.map(({ field, label, hint }) => (
        <FormField
          key={field}
          id={`texts-${field}`}
          label={label}
          hint={hint}
          error={errors[`texts.${field}`]}
        >
          {(control) => (
            <Textarea
              {...control}
              rows={3}
              value={texts[field]}
              onChange={(event) => onChange({ ...texts, [field]: event.target.value })}
              data-testid={`input-texts-${field}`}
            />
          )}
        </FormField>
      ))}
      <fieldset className="grid grid-cols-1 gap-4">
        <legend className="mb-2 font-medium text-sm">Steps</legend>
        {DEMO_STEPS.map((step, index) => (
          <div key={step} className="grid grid-cols-1 gap-3 rounded-xl border p-4 sm:grid-cols-2">
            <FormField
              id={`texts-${step}-heading`}
              label={`${index + 1}. ${STEP_LABELS[step]}: heading`}
              error={errors[`texts.steps.${step}.heading`]}
            >
              {(control) => (
                <Input
                  {...control}
                  value={texts.steps[step].heading}
                  onChange={(event) => setStep(step, { heading: event.target.value })}
                  data-testid={`input-texts-${step}-heading`}
                />
              )}
            </FormField>
            <FormField id={`texts-${step}-help`} label="Help" error={errors[`texts.steps.${step}.help`]}>
              {(control) => (
                <Textarea
                  {...control}
                  rows={2}
                  value={texts.steps[step].help}
                  onChange={(event) => setStep(step, { help: event.target.value })}
                  data-testid={`input-texts-${step}-help`}
                />
              )}
            </FormField>
          </div>
        ))}
      </fieldset>
    </div>
  );
}
