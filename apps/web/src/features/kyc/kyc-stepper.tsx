import { zodResolver } from '@hookform/resolvers/zod';
import { type KycDocumentSlot, kycSubmissionFieldsSchema } from '@platform/contracts';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import { ArrowLeft, ArrowRight, Check, ShieldCheck } from 'lucide-react';
import { type FormEvent, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { countryOptions } from './kyc-countries.ts';
import {
  type KycFormValues,
  type KycStep,
  type KycTextField,
  kycFieldErrorsFromFailure,
  kycSlotsFor,
  kycStepFields,
  kycStepOfField,
  kycSteps,
  toKycFormData,
} from './kyc-form.ts';
import { useSubmitKyc } from './kyc-queries.ts';
import { KycAddressFields, type KycFieldBinding, KycPersonalFields } from './kyc-step-fields.tsx';
import { KycUpload } from './kyc-upload.tsx';
import { type KycFilesState, useKycFiles } from './use-kyc-files.ts';

const stepTitleKey = {
  personal: 'wallet.kyc.steps.personal',
  address: 'wallet.kyc.steps.address',
  documents: 'wallet.kyc.steps.documents',
} as const satisfies Record<KycStep, string>;

const slotLabelKey = {
  documentFront: 'wallet.kyc.files.documentFront',
  documentBack: 'wallet.kyc.files.documentBack',
  selfie: 'wallet.kyc.files.selfie',
} as const satisfies Record<KycDocumentSlot, string>;

/**
 * Spec §2.7 / §3.4: the three-step verification form. Each step's fields are checked (the contract's
 * rules, react-hook-form + zod) before the next one opens; the pictures are checked in the browser
 * (§5 type and size) when they are picked; the whole goes as one multipart POST /v1/triple-a/kyc/submit.
 */
export function KycStepper({
  defaultValues,
  onSubmitted,
  onCancel,
}: {
  defaultValues: KycFormValues;
  onSubmitted: () => void;
  /** Offered when the form was opened on request (submitting again after a rejection). */
  onCancel?: (() => void) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const kyc = useKycStepper(defaultValues, onSubmitted);
  const { step, stepIndex, busy, goTo, formError } = kyc;
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);

  return (
    <section className="wallet-card kyc-form-card" aria-labelledby="kyc-form-title" data-testid="kyc-form">
      <header className="wallet-card-header">
        <div>
          <h2 id="kyc-form-title" className="wallet-card-title">
            {t('wallet.kyc.form.title')}
          </h2>
          <p className="wallet-card-description">{t('wallet.kyc.form.description')}</p>
        </div>
        {onCancel ? (
          <Button variant="ghost" size="sm" onClick={onCancel} disabled={busy}>
            {t('wallet.kyc.form.cancel')}
          </Button>
        ) : null}
      </header>

      <KycStepList stepIndex={stepIndex} busy={busy} onGoTo={goTo} />

      <form
        className="wallet-form kyc-form"
        noValidate
        onSubmit={kyc.onSubmit}
        aria-describedby={formError ? kyc.formErrorId : undefined}
        aria-busy={busy || undefined}
      >
        <h3 className="kyc-step-heading" ref={kyc.stepHeading} tabIndex={-1} data-testid="kyc-step-heading">
          {t(stepTitleKey[step])}
        </h3>

        {step === 'personal' ? <KycPersonalFields {...kyc.fields} /> : null}

        {step === 'address' ? <KycAddressFields {...kyc.fields} countries={countries} /> : null}

        {step === 'documents' ? <KycDocumentUploads files={kyc.files} documentType={kyc.documentType} /> : null}

        {formError ? (
          <p id={kyc.formErrorId} className="form-error" role="alert" data-testid="kyc-form-error">
            {formError}
          </p>
        ) : null}

        <KycActions step={step} stepIndex={stepIndex} busy={busy} onGoTo={goTo} />
        <p className="kyc-privacy">{t('wallet.kyc.form.privacy')}</p>
      </form>
    </section>
  );
}

/** The form's state: the step on show, the react-hook-form fields, the pictures and the submission. */
function useKycStepper(defaultValues: KycFormValues, onSubmitted: () => void) {
  const { t } = useTranslation();
  const form = useForm({ resolver: zodResolver(kycSubmissionFieldsSchema), defaultValues, mode: 'onTouched' });
  const errors = form.formState.errors;
  const documentType = form.watch('documentType');
  const { step, stepHeading, goTo, formError, setFormError } = useKycStep();
  const files = useKycFiles();
  const submission = useSubmitKyc();
  const formErrorId = useId();
  const stepIndex = kycSteps.indexOf(step);

  const next = async () => {
    const valid = await form.trigger([...kycStepFields[step]], { shouldFocus: true });
    const following = kycSteps[stepIndex + 1];
    if (valid && following) goTo(following);
  };

  const submit = form.handleSubmit(
    async (values) => {
      setFormError(null);
      const picked = files.readyToSend(values.documentType, kycSlotsFor(documentType));
      if (!picked) return;
      try {
        await submission.mutateAsync(toKycFormData(values, picked));
        toast.success(t('wallet.kyc.submitted'));
        onSubmitted();
      } catch (error) {
        const firstStep = showKycFieldErrors(error, form.setError, files.setFileErrors, t);
        if (firstStep && firstStep !== step) goTo(firstStep);
        setFormError(errorMessage(error, t, 'wallet.kyc.errors.submitFailed'));
      }
    },
    (invalid) => {
      // A rule of an earlier step fails (a server issue set after the step was left): open that step.
      const first = kycSteps.find((candidate) => kycStepFields[candidate].some((field) => invalid[field]));
      if (first && first !== step) goTo(first);
    },
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Enter in a field of an earlier step moves on, like the Continue button.
    if (step !== 'documents') void next();
    else void submit(event);
  };

  const fields: KycFieldBinding = {
    message: (field) => {
      const text = errors[field]?.message;
      return text ? translateMessage(t, text) : undefined;
    },
    text: (field) => ({ ...form.register(field), 'data-testid': `kyc-${field}` }),
  };
  const busy = submission.isPending;
  return { step, stepIndex, stepHeading, goTo, formError, formErrorId, busy, files, documentType, fields, onSubmit };
}

/** The step on show and the form-wide error, which a change of step clears. */
function useKycStep() {
  const [step, setStep] = useState<KycStep>('personal');
  const [formError, setFormError] = useState<string | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // A new step is announced by moving the focus to its heading (not on the first render), as the
  // step is drawn (a layout effect: a plain effect may run a frame later, and a keystroke land elsewhere).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the focus follows the step, which the effect does not read
  useLayoutEffect(() => {
    if (moved.current) stepHeading.current?.focus();
  }, [step]);

  const goTo = (next: KycStep) => {
    moved.current = true;
    setFormError(null);
    setStep(next);
  };
  return { step, stepHeading, goTo, formError, setFormError };
}

/**
 * A server's refusal: its field problems go next to their fields, pictures included. Returns the
 * earliest step with a problem, for the form to open.
 */
function showKycFieldErrors(
  error: unknown,
  setFieldError: (field: KycTextField, error: { message: string }) => void,
  setFileErrors: KycFilesState['setFileErrors'],
  t: TFunction,
): KycStep | null {
  let firstStep: KycStep | null = null;
  for (const { field, message } of kycFieldErrorsFromFailure(error)) {
    if (field === 'documentFront' || field === 'documentBack' || field === 'selfie') {
      setFileErrors((current) => ({ ...current, [field]: translateMessage(t, message) }));
      firstStep ??= 'documents';
    } else {
      setFieldError(field, { message });
      const fieldStep = kycStepOfField(field);
      if (fieldStep && (firstStep === null || kycSteps.indexOf(fieldStep) < kycSteps.indexOf(firstStep))) {
        firstStep = fieldStep;
      }
    }
  }
  return firstStep;
}

/** The progress list; a done step can be opened again, except while the form is being sent. */
function KycStepList({
  stepIndex,
  busy,
  onGoTo,
}: {
  stepIndex: number;
  busy: boolean;
  onGoTo: (step: KycStep) => void;
}) {
  const { t } = useTranslation();
  return (
    <ol className="kyc-steps" aria-label={t('wallet.kyc.steps.label')}>
      {kycSteps.map((candidate, index) => {
        const state = index < stepIndex ? 'done' : index === stepIndex ? 'current' : 'upcoming';
        const content = (
          <>
            <span className="kyc-step-index" aria-hidden="true">
              {state === 'done' ? <Check size={14} /> : index + 1}
            </span>
            <span className="kyc-step-text">
              <span className="kyc-step-count">{t('wallet.kyc.steps.count', { step: index + 1, total: 3 })}</span>
              <span className="kyc-step-title">{t(stepTitleKey[candidate])}</span>
            </span>
          </>
        );
        return (
          <li
            key={candidate}
            className={clsx('kyc-step', `kyc-step-${state}`)}
            aria-current={state === 'current' ? 'step' : undefined}
            data-testid={`kyc-step-${candidate}`}
          >
            {state === 'done' && !busy ? (
              <button
                type="button"
                className="kyc-step-button"
                onClick={() => onGoTo(candidate)}
                aria-label={t('wallet.kyc.steps.backTo', { step: t(stepTitleKey[candidate]) })}
              >
                {content}
              </button>
            ) : (
              <span className="kyc-step-button">{content}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** Step 3: the pictures of the document (its back when it has one) and the selfie. */
function KycDocumentUploads({
  files,
  documentType,
}: {
  files: KycFilesState;
  documentType: KycFormValues['documentType'];
}) {
  const { t } = useTranslation();
  const { files: picked, fileErrors, checking, fileInputs } = files;
  return (
    <div className="kyc-uploads">
      <p className="wallet-note">{t('wallet.kyc.files.intro')}</p>
      {kycSlotsFor(documentType).map(({ slot, required }) => (
        <KycUpload
          key={slot}
          label={t(slotLabelKey[slot])}
          hint={t(slot === 'selfie' ? 'wallet.kyc.files.selfieHint' : 'wallet.kyc.files.hint')}
          required={required}
          file={picked[slot]?.file ?? null}
          previewUrl={picked[slot]?.previewUrl ?? null}
          error={fileErrors[slot] ? translateMessage(t, fileErrors[slot]) : null}
          checking={checking[slot] ?? false}
          onSelect={(file) => void files.pick(slot, file)}
          onRemove={() => files.remove(slot)}
          testId={`kyc-file-${slot}`}
          inputRef={(element) => {
            if (element) fileInputs.current.set(slot, element);
            else fileInputs.current.delete(slot);
          }}
        />
      ))}
    </div>
  );
}

function KycActions({
  step,
  stepIndex,
  busy,
  onGoTo,
}: {
  step: KycStep;
  stepIndex: number;
  busy: boolean;
  onGoTo: (step: KycStep) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="kyc-actions">
      {stepIndex > 0 ? (
        <Button
          variant="secondary"
          onClick={() => onGoTo(kycSteps[stepIndex - 1] ?? 'personal')}
          disabled={busy}
          icon={<ArrowLeft size={15} aria-hidden="true" className="flip-rtl" />}
          data-testid="kyc-back"
        >
          {t('wallet.kyc.form.back')}
        </Button>
      ) : (
        <span />
      )}
      {step === 'documents' ? (
        <Button
          type="submit"
          loading={busy}
          icon={<ShieldCheck size={15} aria-hidden="true" />}
          data-testid="kyc-submit"
        >
          {busy ? t('wallet.kyc.form.submitting') : t('wallet.kyc.form.submit')}
        </Button>
      ) : (
        <Button type="submit" data-testid="kyc-next">
          {t('wallet.kyc.form.continue')}
          <ArrowRight size={15} aria-hidden="true" className="flip-rtl" />
        </Button>
      )}
    </div>
  );
}
