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
  /** The one sentence an unsure answer starts with, before its list of the best places. */
  unsure: string;
  /** Before `unsure`, when the question names something the docs never mention. */
  neverNamed: (names: string[]) => string;
  /** Before the first quoted page's link. */
  from: string;
  /** Before each further quoted page's link. */
  seeAlso: string;
  /**
   * A follow-up question about a section the reader has not seen; with its page's title when the
   * heading alone ("Notes") would not say which section.
   */
  tellMeAbout: (heading: string, page?: string) => string;
  /** The reasoning part ("How I found this"): how the docs were searched … */
  reasoning: {
    searched: (words: string[]) => string;
    context: (count: number) => string;
    followsUp: (earlier: string) => string;
    pages: (language: string, version: string | undefined) => string;
    byFilter: string;
    currentPage: (path: string) => string;
    kept: (limit: number, matched: number) => string;
    /** Words of the question the docs never use: they found nothing. */
    unknown: (words: string[]) => string;
    /**
     * A long question was cut: `searched` words were searched; `words` past the cut were not, nor
     * (when `more`) the words after them.
     */
    leftOut: (searched: number, words: string[], more: boolean) => string;
    /** … and why this answer: quoted passages, or why none. */
    best: (heading: string, title: string, path: string, quoted: number, related: number) => string;
    notCovered: (percent: number) => string;
    /** Why the answer lists places instead of quoting one: the best matches were close. */
    close: (places: number) => string;
    nothing: string;
  };
}

const quoted = (words: string[], open: string, close: string) =>
  words.map((word) => `${open}${word}${close}`).join(', ');
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

const PHRASES: Record<string, AnswerPhrases> = {
  en: {
    refusal: "The docs don't cover this.",
    noGuess: "No page answers this question, so I won't guess.",
    lookAt: 'You might look at:',
    tryOtherWords: 'Try other words: a feature name, an option or an error message.',
    unsure: "I'm not sure which part of the docs answers this; these sections come closest:",
    neverNamed: (names) => `The docs never mention ${quoted(names, '“', '”')}.`,
    from: 'From',
    seeAlso: 'See also',
    tellMeAbout: (heading, page) => `Tell me about “${heading}”${page ? ` in “${page}”` : ''}`,
    reasoning: {
      searched: (words) =>
        `I searched the docs for ${words.length ? quoted(words, '“', '”') : 'the question'}`,
      context: (n) => `, including the ${n} attached context ${plural(n, 'item', 'items')}`,
      followsUp: (earlier) =>
        `, together with the subject of the earlier question “${earlier}”, because this one follows up on it`,
      pages: (language, version) =>
        `, in ${language} pages${version ? ` of version ${version}` : ''}`,
      byFilter: " (as the request's filter asks)",
      currentPage: (path) => `, with the page the reader is on (${path}) breaking ties`,
      kept: (limit, matched) =>
        `, and kept the top ${limit} ${plural(limit, 'section', 'sections')}: ${matched} matched.`,
      unknown: (words) =>
        ` The docs never use ${quoted(words, '“', '”')}, so ${plural(words.length, 'that word', 'those words')} found nothing and the match is weaker for it.`,
      leftOut: (searched, words, more) =>
        ` The question is long, so I searched only its first ${searched} ${plural(searched, 'word', 'words')} and left out ` +
        (words.length
          ? `${quoted(words, '“', '”')}${more ? ' and the words after them' : ''}.`
          : 'the rest.'),
      best: (heading, title, path, quotedCount, related) =>
        `The best match is “${heading}” on ${title} (${path}); I quote the ` +
        `${quotedCount === 1 ? 'passage' : `top ${quotedCount} passages`} and link every page I used` +
        (related
          ? `, and list ${related} related ${plural(related, 'page', 'pages')} to read next.`
          : '.'),
      notCovered: (percent) =>
        `The closest sections share only ${percent}% of the question's distinctive words, so I say the docs don't cover it rather than quote them as an answer.`,
      close: (places) =>
        `The best sections of different pages scored close to each other, so rather than quote one as the answer I say I'm not sure and show the ${plural(places, 'place', `${places} places`)} to read, each with the sentences that match.`,
      nothing: 'No section of the docs matched, so I say so rather than guess.',
    },
  },
  fr: {
    refusal: 'La documentation ne couvre pas ce sujet.',
    noGuess: 'Aucune page ne répond à cette question, je préfère ne pas deviner.',
    lookAt: 'Vous pouvez consulter :',
    tryOtherWords:
      'Essayez d’autres mots : le nom d’une fonctionnalité, une option ou un message d’erreur.',
    unsure:
      'Je ne suis pas sûr de la partie de la documentation qui répond à cette question ; voici les sections les plus proches :',
    neverNamed: (names) => `La documentation ne mentionne jamais ${quoted(names, '« ', ' »')}.`,
    from: 'D’après',
    seeAlso: 'Voir aussi',
    tellMeAbout: (heading, page) =>
      `Parlez-moi de « ${heading} »${page ? ` dans « ${page} »` : ''}`,
    reasoning: {
      searched: (words) =>
        `J’ai cherché dans la documentation ${words.length ? quoted(words, '« ', ' »') : 'la question'}`,
      context: (n) =>
        `, avec ${plural(n, 'l’élément de contexte joint', `les ${n} éléments de contexte joints`)}`,
      followsUp: (earlier) =>
        `, avec le sujet de la question précédente « ${earlier} », car celle-ci en est la suite`,
      pages: (language, version) =>
        `, dans les pages en ${language}${version ? ` de la version ${version}` : ''}`,
      byFilter: ' (comme le demande le filtre de la requête)',
      currentPage: (path) =>
        `, la page où se trouve le lecteur (${path}) départageant les ex aequo`,
      kept: (limit, matched) =>
        `, et gardé ${plural(limit, 'la meilleure section', `les ${limit} meilleures sections`)} : ${matched} ${plural(matched, 'correspond', 'correspondent')}.`,
      unknown: (words) =>
        ` La documentation n'emploie jamais ${quoted(words, '« ', ' »')} : ${plural(words.length, 'ce mot', 'ces mots')} n'ont rien trouvé et la correspondance en est plus faible.`,
      leftOut: (searched, words, more) =>
        ` La question est longue : je n’ai cherché que ${plural(searched, 'son premier mot', `ses ${searched} premiers mots`)} et j’ai laissé de côté ` +
        (words.length
          ? `${quoted(words, '« ', ' »')}${more ? ' et les mots suivants' : ''}.`
          : 'la suite.'),
      best: (heading, title, path, quotedCount, related) =>
        `La meilleure correspondance est « ${heading} » sur ${title} (${path}) ; je cite ` +
        `${quotedCount === 1 ? 'le passage' : `les ${quotedCount} meilleurs passages`} et renvoie à chaque page utilisée` +
        (related
          ? `, puis liste ${plural(related, 'une page liée', `${related} pages liées`)} à lire ensuite.`
          : '.'),
      notCovered: (percent) =>
        `Les sections les plus proches ne partagent que ${percent} % des mots distinctifs de la question : je dis que la documentation ne couvre pas ce sujet plutôt que de les citer comme réponse.`,
      close: (places) =>
        `Les meilleures sections de pages différentes ont des scores proches : plutôt que d’en citer une comme réponse, je dis que je ne suis pas sûr et montre ${plural(places, 'l’endroit', `les ${places} endroits`)} à lire, avec les phrases qui correspondent.`,
      nothing:
        'Aucune section de la documentation ne correspond : je le dis plutôt que de deviner.',
    },
  },
  de: {
    refusal: 'Die Dokumentation behandelt das nicht.',
    noGuess: 'Keine Seite beantwortet diese Frage, deshalb rate ich nicht.',
    lookAt: 'Vielleicht hilft Ihnen:',
    tryOtherWords:
      'Versuchen Sie andere Wörter: den Namen einer Funktion, eine Option oder eine Fehlermeldung.',
    unsure:
      'Ich bin nicht sicher, welcher Teil der Dokumentation das beantwortet; diese Abschnitte kommen am nächsten:',
    neverNamed: (names) => `Die Dokumentation erwähnt ${quoted(names, '„', '“')} nirgends.`,
    from: 'Aus',
    seeAlso: 'Siehe auch',
    tellMeAbout: (heading, page) =>
      `Erzähl mir mehr über „${heading}“${page ? ` in „${page}“` : ''}`,
    reasoning: {
      searched: (words) =>
        `Ich habe die Dokumentation nach ${words.length ? quoted(words, '„', '“') : 'der Frage'} durchsucht`,
      context: (n) =>
        `, einschließlich ${plural(n, 'des angehängten Kontextelements', `der ${n} angehängten Kontextelemente`)}`,
      followsUp: (earlier) =>
        `, zusammen mit dem Thema der vorigen Frage „${earlier}“, weil diese daran anknüpft`,
      pages: (language, version) =>
        `, in Seiten auf ${language}${version ? ` der Version ${version}` : ''}`,
      byFilter: ' (wie es der Filter der Anfrage verlangt)',
      currentPage: (path) => `, wobei die Seite des Lesers (${path}) bei Gleichstand entscheidet`,
      kept: (limit, matched) =>
        `, und ${plural(limit, 'den besten Abschnitt', `die ${limit} besten Abschnitte`)} behalten: ${matched} ${plural(matched, 'passt', 'passen')}.`,
      unknown: (words) =>
        ` Die Dokumentation verwendet ${quoted(words, '„', '“')} nie: ${plural(words.length, 'dieses Wort hat', 'diese Wörter haben')} nichts gefunden, die Übereinstimmung ist dadurch schwächer.`,
      leftOut: (searched, words, more) =>
        ` Die Frage ist lang, deshalb habe ich nur ${plural(searched, 'ihr erstes Wort', `ihre ersten ${searched} Wörter`)} gesucht und ` +
        (words.length
          ? `${quoted(words, '„', '“')}${more ? ' und die Wörter danach' : ''} ausgelassen.`
          : 'den Rest ausgelassen.'),
      best: (heading, title, path, quotedCount, related) =>
        `Am besten passt „${heading}“ auf ${title} (${path}); ich zitiere ` +
        `${quotedCount === 1 ? 'die Stelle' : `die ${quotedCount} besten Stellen`} und verlinke jede verwendete Seite` +
        (related
          ? ` und nenne ${plural(related, 'eine verwandte Seite', `${related} verwandte Seiten`)} zum Weiterlesen.`
          : '.'),
      notCovered: (percent) =>
        `Die nächsten Abschnitte teilen nur ${percent} % der kennzeichnenden Wörter der Frage, also sage ich, dass die Dokumentation das nicht behandelt, statt sie als Antwort zu zitieren.`,
      close: (places) =>
        `Die besten Abschnitte verschiedener Seiten lagen nah beieinander, also zitiere ich keinen als Antwort, sondern sage, dass ich unsicher bin, und zeige ${plural(places, 'die Stelle', `die ${places} Stellen`)} zum Lesen mit den passenden Sätzen.`,
      nothing: 'Kein Abschnitt der Dokumentation passte, also sage ich das, statt zu raten.',
    },
  },
  es: {
    refusal: 'La documentación no trata este tema.',
    noGuess: 'Ninguna página responde a esta pregunta, así que no voy a adivinar.',
    lookAt: 'Puede consultar:',
    tryOtherWords:
      'Pruebe con otras palabras: el nombre de una función, una opción o un mensaje de error.',
    unsure:
      'No estoy seguro de qué parte de la documentación responde a esto; estas secciones son las más cercanas:',
    neverNamed: (names) => `La documentación nunca menciona ${quoted(names, '«', '»')}.`,
    from: 'De',
    seeAlso: 'Véase también',
    tellMeAbout: (heading, page) => `Háblame de «${heading}»${page ? ` en «${page}»` : ''}`,
    reasoning: {
      searched: (words) =>
        `Busqué en la documentación ${words.length ? quoted(words, '«', '»') : 'la pregunta'}`,
      context: (n) =>
        `, incluido${plural(n, ' el elemento de contexto adjunto', `s los ${n} elementos de contexto adjuntos`)}`,
      followsUp: (earlier) =>
        `, junto con el tema de la pregunta anterior «${earlier}», porque esta la continúa`,
      pages: (language, version) =>
        `, en páginas en ${language}${version ? ` de la versión ${version}` : ''}`,
      byFilter: ' (como pide el filtro de la solicitud)',
      currentPage: (path) => `, con la página del lector (${path}) para desempatar`,
      kept: (limit, matched) =>
        `, y me quedé con ${plural(limit, 'la mejor sección', `las ${limit} mejores secciones`)}: ${plural(matched, 'coincide 1', `coinciden ${matched}`)}.`,
      unknown: (words) =>
        ` La documentación nunca usa ${quoted(words, '«', '»')}: ${plural(words.length, 'esa palabra no encontró', 'esas palabras no encontraron')} nada y la coincidencia es más débil.`,
      leftOut: (searched, words, more) =>
        ` La pregunta es larga, así que solo busqué ${plural(searched, 'su primera palabra', `sus primeras ${searched} palabras`)} y dejé fuera ` +
        (words.length
          ? `${quoted(words, '«', '»')}${more ? ' y las palabras siguientes' : ''}.`
          : 'el resto.'),
      best: (heading, title, path, quotedCount, related) =>
        `La mejor coincidencia es «${heading}» en ${title} (${path}); cito ` +
        `${quotedCount === 1 ? 'el pasaje' : `los ${quotedCount} mejores pasajes`} y enlazo cada página que usé` +
        (related
          ? `, y enumero ${plural(related, 'una página relacionada', `${related} páginas relacionadas`)} para leer después.`
          : '.'),
      notCovered: (percent) =>
        `Las secciones más cercanas solo comparten el ${percent} % de las palabras distintivas de la pregunta, así que digo que la documentación no trata este tema en lugar de citarlas como respuesta.`,
      close: (places) =>
        `Las mejores secciones de páginas distintas puntuaron parecido, así que en lugar de citar una como respuesta digo que no estoy seguro y muestro ${plural(places, 'el lugar', `los ${places} lugares`)} para leer, con las frases que coinciden.`,
      nothing:
        'Ninguna sección de la documentación coincidió, así que lo digo en lugar de adivinar.',
    },
  },
};

/** The phrases for a language tag (`fr`, `fr-CA`, `de-AT`), English when there are none. */
export function phrasesFor(language: string): AnswerPhrases {
  return PHRASES[language.toLowerCase().split(/[-_]/)[0] ?? ''] ?? PHRASES.en!;
}

/** Every language's refusal sentence, so a client or the eval can tell a refusal in any of them. */
export const REFUSAL_SENTENCES = Object.values(PHRASES).map((phrases) => phrases.refusal);
