import { zodResolver } from '@hookform/resolvers/zod';
import { type KycDocumentSlot, kycSubmissionFieldsSchema } from '@platform/contracts';
import clsx from 'clsx';
import { ArrowLeft, ArrowRight, Check, ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { countryOptions } from './kyc-countries.ts';
import { checkKycFile } from './kyc-files.ts';
import {
  type KycFiles,
  type KycFormValues,
  type KycStep,
  type KycTextField,
  kycDocumentTypes,
  kycFieldErrorsFromFailure,
  kycSlotsFor,
  kycStepFields,
  kycStepOfField,
  kycSteps,
  latestDateOfBirth,
  missingKycFiles,
  toKycFormData,
} from './kyc-form.ts';
import { useSubmitKyc } from './kyc-queries.ts';
import { KycUpload } from './kyc-upload.tsx';

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

interface PickedFile {
  file: File;
  previewUrl: string | null;
}

/** An object URL for the preview, where the browser has them (jsdom has none). */
function previewOf(file: File): string | null {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
}

function releasePreview(picked: PickedFile | undefined) {
  if (picked?.previewUrl && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(picked.previewUrl);
}

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
  const form = useForm({ resolver: zodResolver(kycSubmissionFieldsSchema), defaultValues, mode: 'onTouched' });
  const errors = form.formState.errors;
  const documentType = form.watch('documentType');
  const [step, setStep] = useState<KycStep>('personal');
  const [files, setFiles] = useState<Partial<Record<KycDocumentSlot, PickedFile>>>({});
  const [fileErrors, setFileErrors] = useState<Partial<Record<KycDocumentSlot, string>>>({});
  const [checking, setChecking] = useState<Partial<Record<KycDocumentSlot, boolean>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const submission = useSubmitKyc();
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const fileInputs = useRef(new Map<KycDocumentSlot, HTMLInputElement>());
  const moved = useRef(false);
  const formErrorId = useId();
  const stepIndex = kycSteps.indexOf(step);
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const slots = kycSlotsFor(documentType);

  // The previews are object URLs: give them back when the form goes away.
  const filesRef = useRef(files);
  filesRef.current = files;
  useEffect(() => () => Object.values(filesRef.current).forEach(releasePreview), []);

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

  const next = async () => {
    const valid = await form.trigger([...kycStepFields[step]], { shouldFocus: true });
    const following = kycSteps[stepIndex + 1];
    if (valid && following) goTo(following);
  };

  const pick = async (slot: KycDocumentSlot, file: File) => {
    setChecking((current) => ({ ...current, [slot]: true }));
    const check = await checkKycFile(file);
    setChecking((current) => ({ ...current, [slot]: false }));
    if (!check.ok) {
      setFileErrors((current) => ({ ...current, [slot]: t(check.errorKey) }));
      return;
    }
    setFileErrors(({ [slot]: _cleared, ...rest }) => rest);
    setFiles((current) => {
      releasePreview(current[slot]);
      return { ...current, [slot]: { file, previewUrl: previewOf(file) } };
    });
  };

  const remove = (slot: KycDocumentSlot) => {
    setFiles(({ [slot]: removed, ...rest }) => {
      releasePreview(removed);
      return rest;
    });
    setFileErrors(({ [slot]: _cleared, ...rest }) => rest);
  };

  /** A server's refusal: its field problems go next to their fields (opening their step), the rest above the buttons. */
  const showFailure = (error: unknown) => {
    const fieldErrors = kycFieldErrorsFromFailure(error);
    let firstStep: KycStep | null = null;
    for (const { field, message } of fieldErrors) {
      if (field === 'documentFront' || field === 'documentBack' || field === 'selfie') {
        setFileErrors((current) => ({ ...current, [field]: translateMessage(t, message) }));
        firstStep ??= 'documents';
      } else {
        form.setError(field, { message });
        const fieldStep = kycStepOfField(field);
        if (fieldStep && (firstStep === null || kycSteps.indexOf(fieldStep) < kycSteps.indexOf(firstStep))) {
          firstStep = fieldStep;
        }
      }
    }
    if (firstStep && firstStep !== step) goTo(firstStep);
    setFormError(errorMessage(error, t, 'wallet.kyc.errors.submitFailed'));
  };

  const submit = form.handleSubmit(
    async (values) => {
      setFormError(null);
      const picked: KycFiles = Object.fromEntries(
        Object.entries(files).map(([slot, entry]) => [slot, entry.file]),
      ) as KycFiles;
      const missing = missingKycFiles(picked, values.documentType);
      const pending = Object.values(checking).some(Boolean);
      const missingSlots = Object.keys(missing) as KycDocumentSlot[];
      if (missingSlots.length > 0) {
        setFileErrors((current) => ({ ...current, ...missing }));
        const first = missingSlots[0];
        if (first) fileInputs.current.get(first)?.focus();
        return;
      }
      const invalidSlot = slots.find(({ slot }) => fileErrors[slot]);
      if (pending || invalidSlot) {
        if (invalidSlot) fileInputs.current.get(invalidSlot.slot)?.focus();
        return;
      }
      try {
        await submission.mutateAsync(toKycFormData(values, picked));
        toast.success(t('wallet.kyc.submitted'));
        onSubmitted();
      } catch (error) {
        showFailure(error);
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

  const message = (field: KycTextField) => {
    const text = errors[field]?.message;
    return text ? translateMessage(t, text) : undefined;
  };
  const text = (field: KycTextField) => ({ ...form.register(field), 'data-testid': `kyc-${field}` });
  const busy = submission.isPending;

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
                  onClick={() => goTo(candidate)}
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

      <form
        className="wallet-form kyc-form"
        noValidate
        onSubmit={onSubmit}
        aria-describedby={formError ? formErrorId : undefined}
        aria-busy={busy || undefined}
      >
        <h3 className="kyc-step-heading" ref={stepHeading} tabIndex={-1} data-testid="kyc-step-heading">
          {t(stepTitleKey[step])}
        </h3>

        {step === 'personal' ? (
          <div className="kyc-fields">
            <div className="field-pair">
              <TextField
                label={t('wallet.kyc.fields.firstName')}
                autoComplete="given-name"
                error={message('firstName')}
                {...text('firstName')}
              />
              <TextField
                label={t('wallet.kyc.fields.lastName')}
                autoComplete="family-name"
                error={message('lastName')}
                {...text('lastName')}
              />
            </div>
            <TextField
              label={t('wallet.kyc.fields.email')}
              type="email"
              autoComplete="email"
              inputMode="email"
              error={message('email')}
              {...text('email')}
            />
            <div className="field-pair">
              <TextField
                label={t('wallet.kyc.fields.phone')}
                type="tel"
                autoComplete="tel"
                inputMode="tel"
                placeholder="+44 20 7946 0958"
                error={message('phone')}
                {...text('phone')}
              />
              <TextField
                label={t('wallet.kyc.fields.dateOfBirth')}
                type="date"
                autoComplete="bday"
                min="1900-01-01"
                max={latestDateOfBirth()}
                error={message('dateOfBirth')}
                hint={t('wallet.kyc.fields.dateOfBirthHint')}
                {...text('dateOfBirth')}
              />
            </div>
          </div>
        ) : null}

        {step === 'address' ? (
          <div className="kyc-fields">
            <SelectField
              label={t('wallet.kyc.fields.country')}
              error={message('country')}
              autoComplete="country"
              {...text('country')}
            >
              <option value="">{t('wallet.kyc.fields.countryPlaceholder')}</option>
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </SelectField>
            <TextField
              label={t('wallet.kyc.fields.address')}
              autoComplete="street-address"
              error={message('address')}
              {...text('address')}
            />
            <div className="field-pair">
              <TextField
                label={t('wallet.kyc.fields.city')}
                autoComplete="address-level2"
                error={message('city')}
                {...text('city')}
              />
              <TextField
                label={t('wallet.kyc.fields.postalCode')}
                autoComplete="postal-code"
                error={message('postalCode')}
                {...text('postalCode')}
              />
            </div>
            <div className="field-pair">
              <SelectField
                label={t('wallet.kyc.fields.documentType')}
                error={message('documentType')}
                {...text('documentType')}
              >
                {kycDocumentTypes.map((type) => (
                  <option key={type} value={type}>
                    {t(`wallet.kyc.documentTypes.${type}`)}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={t('wallet.kyc.fields.documentNumber')}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                error={message('documentNumber')}
                {...text('documentNumber')}
              />
            </div>
          </div>
        ) : null}

        {step === 'documents' ? (
          <div className="kyc-uploads">
            <p className="wallet-note">{t('wallet.kyc.files.intro')}</p>
            {slots.map(({ slot, required }) => (
              <KycUpload
                key={slot}
                label={t(slotLabelKey[slot])}
                hint={t(slot === 'selfie' ? 'wallet.kyc.files.selfieHint' : 'wallet.kyc.files.hint')}
                required={required}
                file={files[slot]?.file ?? null}
                previewUrl={files[slot]?.previewUrl ?? null}
                error={fileErrors[slot] ? translateMessage(t, fileErrors[slot]) : null}
                checking={checking[slot] ?? false}
                onSelect={(file) => void pick(slot, file)}
                onRemove={() => remove(slot)}
                testId={`kyc-file-${slot}`}
                inputRef={(element) => {
                  if (element) fileInputs.current.set(slot, element);
                  else fileInputs.current.delete(slot);
                }}
              />
            ))}
          </div>
        ) : null}

        {formError ? (
          <p id={formErrorId} className="form-error" role="alert" data-testid="kyc-form-error">
            {formError}
          </p>
        ) : null}

        <div className="kyc-actions">
          {stepIndex > 0 ? (
            <Button
              variant="secondary"
              onClick={() => goTo(kycSteps[stepIndex - 1] ?? 'personal')}
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
        <p className="kyc-privacy">{t('wallet.kyc.form.privacy')}</p>
      </form>
    </section>
  );
}
