import { describe, expect, it } from 'vitest';
import { readAsks, splitText } from './asks';

/** Whether a message with this body (and subject) asks something of its reader. */
const asks = (text: string, subject = 'Hello') => readAsks({ subject, own: splitText(text).own });

describe('what the sender wrote now', () => {
  it('drops quoted replies of Gmail, Apple Mail and Outlook, in the four languages', () => {
    const replies = [
      'Thanks, that works!\n\nOn Mon, Mar 3, 2025 at 9:00 AM Alex <me@example.com> wrote:\n> Can you come on Tuesday?',
      'Danke, passt!\n\nAm Mo., 3. März 2025 um 09:15 Uhr schrieb Alex <me@example.com>:\n> Kannst du am Dienstag?',
      "Merci, c'est parfait.\n\nLe lun. 3 mars 2025 à 10:02, Alex <me@example.com> a écrit :\n> Tu peux venir mardi ?",
      'Gracias, perfecto.\n\nEl lun, 3 mar 2025 a las 10:00, Alex (<me@example.com>) escribió:\n> ¿Puedes venir el martes?',
      'Thanks!\n\n-----Original Message-----\nFrom: Alex <me@example.com>\nSent: Monday\nTo: Ben\n\nCan you come?',
      'Danke!\n\nVon: Alex Morgan <me@example.com>\nGesendet: Montag, 3. März 2025 10:12\nAn: Tim\nBetreff: Grillen\n\nKommst du?',
      'Merci !\n\nDe : Alex Morgan <me@example.com>\nEnvoyé : lundi 3 mars 2025 10:00\nÀ : Sophie\n\nTu viens ?',
      'Thanks.\n\nVince J Kaminski@ECT\n01/11/00 10:03 AM\n\t\t To: Jean Mrha\n\nCould you send the file?',
      'FYI, see below.\n\n---------- Forwarded message ---------\nFrom: Billing <billing@vendor.example>\n\nCan you pay?',
    ];
    for (const text of replies) {
      const own = splitText(text).own;
      expect(own).not.toMatch(/\?/);
      expect(asks(text).asks).toBe(false);
    }
  });

  it('drops the signature, and keeps footers out of what was written but in the unquoted text', () => {
    const { own, unquoted } = splitText(
      'Are you coming tonight?\n\n-- \nAnn Lee\nhttps://ann.example\n\nOn Mon, Bob wrote:\n> old text',
    );
    expect(own).toBe('Are you coming tonight?');
    expect(unquoted).toContain('Ann Lee');
    expect(unquoted).not.toContain('old text');
  });
});

describe('asks something of the reader', () => {
  it.each([
    ['en', 'Would I be able to get a copy of your presentation from last night?'],
    ['en', 'Is it very dark in color?  And how big around is it?'],
    ['en', 'Please forward the info to her at doreen@example.com'],
    ['en', 'We need to move our meeting. Does Wednesday at 2 work for you'],
    [
      'en',
      'I am available every day next week. Please let me know if it is more convenient to meet in Houston.',
    ],
    ['en', 'Alex, please sign the attached form and return it by Friday.'],
    ['en', 'Looking forward to hearing from you.'],
    ['de', 'Kannst du mir bis Freitag die Folien schicken?'],
    ['de', 'Bitte schick mir die unterschriebene Vereinbarung bis spätestens Mittwoch zurück.'],
    ['de', 'Gib mir kurz Bescheid, ob du am Donnerstag dabei bist.'],
    ['de', 'Könnten Sie mir die fehlenden Belege zukommen lassen.'],
    ['de', 'Ich freue mich auf Ihre Rückmeldung.'],
    ['fr', "Pourrais-tu m'envoyer le rapport avant vendredi ?"],
    ['fr', 'Merci de me confirmer ta présence au dîner de samedi.'],
    ['fr', 'Dites-moi si les dates vous conviennent.'],
    ['fr', "J'ai besoin de votre accord sur le budget d'ici jeudi."],
    ['es', '¿Podrías enviarme las fotos del viaje?'],
    ['es', 'Por favor, confírmame antes del jueves si vienes a la cena.'],
    ['es', 'Necesito que revises el contrato lo antes posible.'],
    ['es', 'Quedo a la espera de tu respuesta.'],
  ])('%s: %s', (_language, text) => {
    expect(asks(text)).toMatchObject({ asks: true });
  });

  it('says why: a question, a request, a confirmation, a deadline, each with its language', () => {
    expect(asks('Are you free on Friday?').reasons).toContain('question');
    expect(asks('Bitte schick mir die Datei.').reasons).toContain('request:de');
    expect(asks('Merci de me confirmer ta présence.').reasons).toContain('confirm:fr');
    expect(asks('Os espero a más tardar a las ocho.').reasons).toEqual(['deadline:es']);
    expect(asks('See attached.', 'Lunch on Friday?').reasons).toEqual(['subject-question']);
    // A reply's subject is the other side's question, not this message's.
    expect(asks('See attached.', 'Re: Lunch on Friday?').asks).toBe(false);
  });
});

describe('asks nothing', () => {
  it.each([
    [
      'en',
      'Thank you so much for your thoughtfulness. This basket is absolutely beautiful. Have a wonderful holiday!',
    ],
    ['en', 'Congrats on your promotion to MD. Well deserved!'],
    ['en', 'FYI, I ordered the Risk Management book you requested. It will be published on June 2nd.'],
    ['en', 'Let me know if you need anything else for the trip. Have fun!'],
    ['en', 'Call me if you want to take a look at it.'],
    ['en', 'If you want to use the picture as wallpaper, let me know your screen resolution.'],
    ['en', "You don't have to respond! I bought six tickets to the show on Saturday."],
    ['en', 'Please find attached the minutes of the meeting.'],
    ['en', 'Hi!? How was the trip.? It was great to see you.'],
    ['en', 'How are you?\n\nJust wanted to say that the new office looks great.'],
    ['de', 'Vielen Dank für deine Hilfe beim Umzug! Ohne dich hätten wir das nie geschafft.'],
    ['de', 'Herzlichen Glückwunsch zur Beförderung! Das hast du dir wirklich verdient.'],
    ['de', 'Zur Info: Das Büro ist morgen geschlossen. Ihr müsst nicht antworten.'],
    ['de', 'Danke für deine Rückmeldung, dann machen wir es so.'],
    ['fr', "Un grand merci pour ton accueil ce week-end, c'était parfait !"],
    ['fr', 'Félicitations pour ton nouveau poste ! Je suis très content pour toi.'],
    ['fr', 'Pour info : la réunion est déplacée à 15h. Pas besoin de répondre.'],
    ['fr', "N'hésite pas si tu as des questions."],
    ['es', '¡Muchas gracias por el regalo! Nos encantó.'],
    ['es', '¡Enhorabuena por el premio! Te lo mereces.'],
    ['es', 'Para tu información: mañana no hay clase. No hace falta que respondas.'],
    ['es', 'Si tienes alguna pregunta, no dudes en escribirme.'],
  ])('%s: %s', (_language, text) => {
    expect(asks(text)).toEqual({ asks: false, reasons: [] });
  });
});
