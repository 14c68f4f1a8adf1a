/**
 * The words the no-model default writes around what it quotes, in the language it answers in (the
 * language of the pages it searched, SPEC §2.1's `filter.language` or the question's own). Quoted
 * passages are the docs' own words; only this frame is ours, so a French page's answer does not
 * start with "From". A language not listed here gets English.
 */
export interface AnswerPhrases {
  /** The sentence every "not covered" answer starts with. */
  refusal: string;
  /** Why nothing is quoted. */
  noGuess: string;
  /** Before the list of nearest pages. */
  lookAt: string;
  /** When not even a nearest page matched. */
  tryOtherWords: string;
  /** Before the first quoted page's link. */
  from: string;
  /** Before each further quoted page's link. */
  seeAlso: string;
  /** A follow-up question about a section the reader has not seen. */
  tellMeAbout: (heading: string) => string;
}

const PHRASES: Record<string, AnswerPhrases> = {
  en: {
    refusal: "The docs don't cover this.",
    noGuess: "No page answers this question, so I won't guess.",
    lookAt: 'You might look at:',
    tryOtherWords: 'Try other words: a feature name, an option or an error message.',
    from: 'From',
    seeAlso: 'See also',
    tellMeAbout: (heading) => `Tell me about “${heading}”`,
  },
  fr: {
    refusal: 'La documentation ne couvre pas ce sujet.',
    noGuess: 'Aucune page ne répond à cette question, je préfère ne pas deviner.',
    lookAt: 'Vous pouvez consulter :',
    tryOtherWords:
      'Essayez d’autres mots : le nom d’une fonctionnalité, une option ou un message d’erreur.',
    from: 'D’après',
    seeAlso: 'Voir aussi',
    tellMeAbout: (heading) => `Parlez-moi de « ${heading} »`,
  },
  de: {
    refusal: 'Die Dokumentation behandelt das nicht.',
    noGuess: 'Keine Seite beantwortet diese Frage, deshalb rate ich nicht.',
    lookAt: 'Vielleicht hilft Ihnen:',
    tryOtherWords:
      'Versuchen Sie andere Wörter: den Namen einer Funktion, eine Option oder eine Fehlermeldung.',
    from: 'Aus',
    seeAlso: 'Siehe auch',
    tellMeAbout: (heading) => `Erzähl mir mehr über „${heading}“`,
  },
  es: {
    refusal: 'La documentación no trata este tema.',
    noGuess: 'Ninguna página responde a esta pregunta, así que no voy a adivinar.',
    lookAt: 'Puede consultar:',
    tryOtherWords:
      'Pruebe con otras palabras: el nombre de una función, una opción o un mensaje de error.',
    from: 'De',
    seeAlso: 'Véase también',
    tellMeAbout: (heading) => `Háblame de «${heading}»`,
  },
};

/** The phrases for a language tag (`fr`, `fr-CA`, `de-AT`), English when there are none. */
export function phrasesFor(language: string): AnswerPhrases {
  return PHRASES[language.toLowerCase().split(/[-_]/)[0] ?? ''] ?? PHRASES.en!;
}

/** Every language's refusal sentence, so a client or the eval can tell a refusal in any of them. */
export const REFUSAL_SENTENCES = Object.values(PHRASES).map((phrases) => phrases.refusal);
