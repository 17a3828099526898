import type { KycDocumentSlot } from '@platform/contracts';
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkKycFile } from './kyc-files.ts';
import { type KycFiles, type KycFormValues, type kycSlotsFor, missingKycFiles } from './kyc-form.ts';

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

export interface KycFilesState {
  files: Partial<Record<KycDocumentSlot, PickedFile>>;
  fileErrors: Partial<Record<KycDocumentSlot, string>>;
  setFileErrors: Dispatch<SetStateAction<Partial<Record<KycDocumentSlot, string>>>>;
  checking: Partial<Record<KycDocumentSlot, boolean>>;
  /** The file inputs by slot, to focus the one that keeps the form from going. */
  fileInputs: { current: Map<KycDocumentSlot, HTMLInputElement> };
  pick: (slot: KycDocumentSlot, file: File) => Promise<void>;
  remove: (slot: KycDocumentSlot) => void;
  /** The pictures to send, or null (and the problem marked and focused) while one is missing, checked or refused. */
  readyToSend: (documentType: KycFormValues['documentType'], slots: ReturnType<typeof kycSlotsFor>) => KycFiles | null;
}

/** The pictures of the form: each is checked in the browser (§5 type and size) when it is picked. */
export function useKycFiles(): KycFilesState {
  const { t } = useTranslation();
  const [files, setFiles] = useState<Partial<Record<KycDocumentSlot, PickedFile>>>({});
  const [fileErrors, setFileErrors] = useState<Partial<Record<KycDocumentSlot, string>>>({});
  const [checking, setChecking] = useState<Partial<Record<KycDocumentSlot, boolean>>>({});
  const fileInputs = useRef(new Map<KycDocumentSlot, HTMLInputElement>());

  // The previews are object URLs: give them back when the form goes away.
  const filesRef = useRef(files);
  filesRef.current = files;
  useEffect(() => () => Object.values(filesRef.current).forEach(releasePreview), []);

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

  const readyToSend: KycFilesState['readyToSend'] = (documentType, slots) => {
    const picked: KycFiles = Object.fromEntries(
      Object.entries(files).map(([slot, entry]) => [slot, entry.file]),
    ) as KycFiles;
    const missing = missingKycFiles(picked, documentType);
    const pending = Object.values(checking).some(Boolean);
    const missingSlots = Object.keys(missing) as KycDocumentSlot[];
    if (missingSlots.length > 0) {
      setFileErrors((current) => ({ ...current, ...missing }));
      const first = missingSlots[0];
      if (first) fileInputs.current.get(first)?.focus();
      return null;
    }
    const invalidSlot = slots.find(({ slot }) => fileErrors[slot]);
    if (pending || invalidSlot) {
      if (invalidSlot) fileInputs.current.get(invalidSlot.slot)?.focus();
      return null;
    }
    return picked;
  };

  return { files, fileErrors, setFileErrors, checking, fileInputs, pick, remove, readyToSend };
}
