-- Buying with a card through the provider's hosted checkout (docs/payments.md, "Buying with a card"),
-- and withdrawal networks (docs/withdrawals.md, "Networks").
-- Our record of a checkout and the sandbox provider's own both say how the payer pays.
ALTER TABLE payments ADD COLUMN pay_method text NOT NULL DEFAULT 'crypto' CHECK (pay_method IN ('crypto', 'card'));
ALTER TABLE sandbox_payments ADD COLUMN pay_method text NOT NULL DEFAULT 'crypto' CHECK (pay_method IN ('crypto', 'card'));
-- The network a withdrawal of a currency on several networks is sent on (USDT on Tron, say); null otherwise.
ALTER TABLE withdrawals ADD COLUMN network text;
