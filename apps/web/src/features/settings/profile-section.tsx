import type { Account } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountsApi } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import {
  type ProfileFormValues,
  profileFormDefaults,
  profileFormField,
  profileResolver,
  toProfileRequest,
  tradingExperienceOptions,
} from './profile-form.ts';
import { settingsQueryKeys } from './query-keys.ts';

/** The profile form and its save: a saved profile becomes the signed-in user and the cached account. */
function useProfileForm(account: Account) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const setUser = useAppStore((state) => state.setUser);
  const form = useForm<ProfileFormValues>({ resolver: profileResolver, defaultValues: profileFormDefaults(account) });

  // A fresher account from the server resets the form, unless the user is mid-edit.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(profileFormDefaults(account));
  }, [account, form]);

  const mutation = useMutation({
    mutationFn: (values: ProfileFormValues) => accountsApi.updateProfile(account.id, toProfileRequest(values)),
    onSuccess: (updated) => {
      setUser(updated);
      queryClient.setQueryData(settingsQueryKeys.account(updated.id), updated);
      form.reset(profileFormDefaults(updated));
      toast.success(t('success.profileUpdated'));
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        if (error.code === 'USERNAME_TAKEN') form.setError('username', { message: error.message });
        for (const issue of error.issues) {
          const field = profileFormField(issue.path);
          if (field) form.setError(field, { message: issue.key ?? issue.message });
        }
      }
      toast.error(t('errors.failedToUpdateProfile'));
    },
  });
  return { form, mutation };
}

export function ProfileSection({ account }: { account: Account }) {
  const { t } = useTranslation();
  const { form, mutation } = useProfileForm(account);
  const errors = form.formState.errors;

  const message = (text: string | undefined) => (text ? translateMessage(t, text) : undefined);

  return (
    <section className="settings-card" aria-labelledby="settings-profile-title">
      <h2 id="settings-profile-title" className="settings-card-title">
        {t('settings.profile.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.profile.description')}</p>
      <form className="settings-form" noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <div className="field-pair">
          <TextField
            label={t('settings.profile.displayName')}
            autoComplete="nickname"
            error={message(errors.displayName?.message)}
            {...form.register('displayName')}
          />
          <TextField
            label={t('settings.profile.username')}
            autoComplete="username"
            hint={t('settings.profile.usernameHint')}
            data-testid="profile-username"
            error={message(errors.username?.message)}
            {...form.register('username')}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="profile-bio">
            {t('settings.profile.bio')}
          </label>
          <textarea
            id="profile-bio"
            className="input textarea"
            rows={3}
            aria-invalid={errors.bio ? true : undefined}
            {...form.register('bio')}
          />
          {errors.bio?.message ? (
            <p className="field-error" role="alert">
              {message(errors.bio.message)}
            </p>
          ) : null}
        </div>
        <div className="field-pair">
          <TextField
            label={t('settings.profile.location')}
            error={message(errors.location?.message)}
            {...form.register('location')}
          />
          <TextField
            label={t('settings.profile.website')}
            type="url"
            placeholder="https://"
            error={message(errors.website?.message)}
            {...form.register('website')}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="profile-experience">
            {t('settings.profile.tradingExperience')}
          </label>
          <select id="profile-experience" className="input select" {...form.register('tradingExperience')}>
            <option value="">{t('settings.profile.experienceUnset')}</option>
            {tradingExperienceOptions.map((option) => (
              <option key={option} value={option}>
                {t(`settings.profile.experience.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="toggle-list">
          <Controller
            control={form.control}
            name="privateProfile"
            render={({ field }) => (
              <ToggleSwitch
                label={t('settings.profile.privateProfile')}
                hint={t('settings.profile.privateProfileHint')}
                checked={field.value}
                onChange={field.onChange}
                testId="profile-private"
              />
            )}
          />
          <Controller
            control={form.control}
            name="allowCopyTrading"
            render={({ field }) => (
              <ToggleSwitch
                label={t('settings.profile.allowCopyTrading')}
                hint={t('settings.profile.allowCopyTradingHint')}
                checked={field.value}
                onChange={field.onChange}
                testId="profile-allow-copy-trading"
              />
            )}
          />
        </div>
        <TextField
          label={t('settings.profile.copyTradingFee')}
          inputMode="decimal"
          className="field-narrow"
          error={message(errors.copyTradingFeePercent?.message)}
          {...form.register('copyTradingFeePercent')}
        />
        <div className="form-actions">
          <Button type="submit" loading={mutation.isPending} data-testid="profile-save">
            {mutation.isPending ? t('common.saving') : t('common.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
