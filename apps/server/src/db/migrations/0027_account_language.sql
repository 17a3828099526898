-- The interface language the account chose (docs/i18n.md "Server texts"): the client saves it when
-- a signed-in user changes language and adopts it at sign-in; the server writes the account's mails
-- in it. NULL = never chosen (mails in English). The codes are packages/contracts/src/languages.ts.
ALTER TABLE accounts ADD COLUMN language text CHECK (language IN (
  'en', 'da', 'de', 'es', 'fr', 'it', 'pt', 'ru', 'zh', 'ja', 'ko',
  'ar', 'hi', 'tr', 'pl', 'nl', 'sv', 'no', 'fi', 'cs', 'hu', 'ro'
));
