import type { MailTexts } from './en.ts';

export const hu: MailTexts = {
  greeting: 'Kedves {{firstName}}!',
  verifySubject: 'Erősítse meg e-mail-címét',
  verifyIntro: 'Kérjük, erősítse meg Meridian e-mail-címét az alábbi link megnyitásával:',
  verifyAction: 'E-mail-cím megerősítése',
  verifyValidity: 'A link 24 óráig érvényes. Ha nem Ön hozott létre fiókot, hagyja figyelmen kívül ezt a levelet.',
  existingSubject: 'Valaki fiókot próbált létrehozni az Ön e-mail-címével',
  existingAttempt:
    'Valaki (talán Ön) az imént Meridian-fiókot próbált létrehozni ezzel az e-mail-címmel. Önnek már van fiókja, így semmi sem jött létre és semmi sem változott.',
  existingSignIn:
    'A folytatáshoz jelentkezzen be a(z) {{publicUrl}} oldalon a jelszavával. Ha nem emlékszik rá, használja a bejelentkezési képernyőn az „Elfelejtett jelszó” lehetőséget.',
  existingIgnore: 'Ha nem Ön volt, nyugodtan hagyja figyelmen kívül ezt a levelet.',
  resetSubject: 'Jelszó visszaállítása',
  resetIntro:
    'Valaki kérte Meridian-fiókja jelszavának visszaállítását. Új jelszó megadásához nyissa meg ezt a linket:',
  resetAction: 'Új jelszó megadása',
  resetValidity:
    'A link egyszer használható, {{minutes}} percig. A jelszó visszaállítása minden eszközön kijelentkezteti Önt.',
  resetIgnore: 'Ha nem Ön kérte, hagyja figyelmen kívül ezt a levelet: a jelszava változatlan marad.',
  changedSubject: 'Jelszava megváltozott',
  changedNotice:
    'Meridian-fiókja jelszava {{when}} UTC időpontban megváltozott; a változás előtt bejelentkezett összes munkamenetet kijelentkeztettük.',
  changedAdvice:
    'Ha nem Ön volt, azonnal állítsa vissza jelszavát a bejelentkezési ablakban (Elfelejtett jelszó?) a(z) {{publicUrl}} oldalon, és lépjen kapcsolatba az ügyfélszolgálattal.',
};
