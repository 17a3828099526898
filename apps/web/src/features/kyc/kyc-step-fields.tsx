import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import type { CountryOption } from './kyc-countries.ts';
import { type KycTextField, kycDocumentTypes, latestDateOfBirth } from './kyc-form.ts';

/** The error of a field (translated) and its react-hook-form binding with its test id. */
export interface KycFieldBinding {
  message: (field: KycTextField) => string | undefined;
  text: (field: KycTextField) => UseFormRegisterReturn<KycTextField> & { 'data-testid': string };
}

/** Step 1: who the person is. */
export function KycPersonalFields({ message, text }: KycFieldBinding) {
  const { t } = useTranslation();
  return (
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
  );
}

/** Step 2: where the person lives and which document proves it. */
export function KycAddressFields({
  message,
  text,
  countries,
}: KycFieldBinding & { countries: readonly CountryOption[] }) {
  const { t } = useTranslation();
  return (
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
  );
}
