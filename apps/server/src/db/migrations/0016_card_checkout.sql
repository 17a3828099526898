-- Buying with a card through the provider's hosted checkout (docs/payments.md, "Buying with a card").
-- Our record of a checkout and the sandbox provider's own both say how the payer pays.
ALTER TABLE payments ADD COLUMN pay_method text NOT NULL DEFAULT 'crypto' CHECK (pay_method IN ('crypto', 'card'));
ALTER TABLE sandbox_payments ADD COLUMN pay_method text NOT NULL DEFAULT 'crypto' CHECK (pay_method IN ('crypto', 'card'));
