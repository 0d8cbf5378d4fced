import TestSupport
import UnfoldCorpus

/// A deterministic corpus of markdown paragraphs in eight languages, with mixed styles, links, code, numbers,
/// punctuation, URLs, hyphenated words and soft hyphens: what the browser tests lay out in Chromium and in the
/// engine.
///
/// The words are the project's own.
enum Corpus {
  typealias Generator = SplitMix64

  static let words: [String: [String]] = [
    "en":
      ("the layout engine measures every word once and then breaks lines for any width you ask about while the"
      + " reader waits for nothing because previews stay short and honest about what they hide behind more").split(
        separator: " "
      ).map(String.init) + ["state-of-the-art", "well-known", "e.g.", "don't", "it's"],
    "de":
      ("die Zeilen werden einmal gemessen und danach für jede Breite neu umbrochen während Leserinnen und Leser"
      + " nichts davon bemerken weil Vorschauen kurz bleiben und ehrlich zeigen was hinter mehr verborgen ist").split(
        separator: " "
      ).map(String.init) + ["Straßenbahn", "Größe", "Übersicht", "E-Mail-Adresse"],
    "fr":
      ("le moteur mesure chaque mot une seule fois puis coupe les lignes pour toute largeur demandée pendant que"
      + " le lecteur attend à peine car les aperçus restent courts et honnêtes sur ce qu’ils cachent derrière").split(
        separator: " "
      ).map(String.init) + ["aujourd’hui", "c’est-à-dire", "« texte »", "peut-être"],
    "es":
      ("el motor mide cada palabra una sola vez y luego corta las líneas para cualquier ancho mientras la lectora"
      + " no espera nada porque las vistas previas siguen siendo breves y honestas sobre lo que esconden").split(
        separator: " "
      ).map(String.init) + ["¿Cómo?", "¡Hola!", "año", "pequeño"],
    "pl":
      ("silnik mierzy każde słowo tylko raz a potem łamie wiersze dla dowolnej szerokości podczas gdy czytelnik"
      + " niczego nie zauważa bo podglądy pozostają krótkie i uczciwie pokazują co kryje się pod przyciskiem").split(
        separator: " "
      ).map(String.init) + ["źdźbło", "żółć", "„cytat”", "biało-czerwony"],
    "ru":
      ("движок измеряет каждое слово один раз а затем разбивает строки для любой ширины пока читатель ничего не"
      + " замечает потому что превью остаются короткими и честно показывают что скрыто за кнопкой").split(
        separator: " "
      ).map(String.init) + ["«цитата»", "что-нибудь", "подъезд", "съёмка"],
    "el":
      ("η μηχανή μετρά κάθε λέξη μία φορά και έπειτα σπάει τις γραμμές για κάθε πλάτος ενώ ο αναγνώστης δεν"
      + " περιμένει τίποτα επειδή οι προεπισκοπήσεις μένουν σύντομες και ειλικρινείς για όσα κρύβουν").split(
        separator: " "
      ).map(String.init) + ["«κείμενο»", "ελληνικά;", "άλλο", "ψυχή"],
    "vi":
      ("bộ máy đo mỗi từ đúng một lần rồi ngắt dòng cho mọi độ rộng trong khi người đọc không phải chờ đợi vì"
      + " các bản xem trước vẫn ngắn gọn và trung thực về những gì được giấu sau nút xem thêm").split(separator: " ")
      .map(String.init) + ["Việt", "nghiêng", "đường", "thuộc"],
  ]

  /// Armenian, drawn by DejaVu Sans (not by Liberation Sans), for the tests that run with the fallback chain.
  static let armenian =
    ("շարժիչը չափում է յուրաքանչյուր բառ մեկ անգամ և հետո կոտրում է տողերը ցանկացած լայնության համար մինչ"
    + " ընթերցողը ոչինչ չի սպասում քանի որ նախադիտումները մնում են կարճ և ազնիվ").split(separator: " ").map(
      String.init) + ["«մեջբերում»", "Հայաստան", "հայերեն-անգլերեն", "ի՞նչ", "այո՛"]

  static let longWords: [String: String] = [
    "hy": "հա\u{AD}կա\u{AD}պե\u{AD}տա\u{AD}կան\u{AD}ու\u{AD}թյուն",
    "en": "in\u{AD}com\u{AD}pre\u{AD}hen\u{AD}si\u{AD}bil\u{AD}i\u{AD}ties",
    "de": "Donau\u{AD}dampf\u{AD}schiff\u{AD}fahrts\u{AD}ge\u{AD}sell\u{AD}schaft",
    "fr": "anti\u{AD}consti\u{AD}tution\u{AD}nelle\u{AD}ment",
    "es": "electro\u{AD}encefalo\u{AD}grafista",
    "pl": "kon\u{AD}stan\u{AD}ty\u{AD}no\u{AD}po\u{AD}li\u{AD}tań\u{AD}czy\u{AD}ków\u{AD}na",
    "ru": "рентгено\u{AD}электро\u{AD}кардио\u{AD}графи\u{AD}ческий",
    "el": "ηλεκτρο\u{AD}εγκεφαλο\u{AD}γράφημα",
    "vi": "nghiêng\u{AD}ngả\u{AD}nghiêng",
  ]

  static let languages = ["en", "de", "fr", "es", "pl", "ru", "el", "vi"]

  /// `count` paragraphs per language, each with its language.
  static func paragraphs(perLanguage count: Int, languages: [String] = languages) -> [(
    language: String, markdown: String
  )] {
    var result: [(language: String, markdown: String)] = []
    for language in languages {
      var generator = Generator(state: UInt64(language.unicodeScalars.reduce(7) { $0 &* 31 &+ $1.value }))
      for _ in 0..<count {
        result.append((language, paragraph(language, &generator)))
      }
    }
    return result
  }

  static func paragraph(_ language: String, _ generator: inout Generator) -> String {
    let words = language == "hy" ? armenian : Self.words[language] ?? []
    var tokens: [String] = []
    let length = 12 + generator.below(40)
    var index = 0
    while index < length {
      index += 1
      let word = generator.pick(words)
      switch generator.below(40) {
      case 0: tokens.append("**\(word) \(generator.pick(words))**")
      case 1: tokens.append("*\(word)*")
      case 2: tokens.append("~~\(word)~~")
      case 3: tokens.append("`\(generator.pick(["let x = 42", "foo()", "a && b", "x->y", "i += 1"]))`")
      case 4:
        tokens.append("[\(word) \(generator.pick(words))](https://example.com/\(language)/\(generator.below(999)))")
      case 5:
        tokens.append(
          generator.pick(["$19.99", "42%", "1,234.56", "2024-06-01", "v1.2.3", "(42)", "-7", "3×4", "12:30"]))
      case 6: tokens.append("https://example.org/docs/page?id=\(generator.below(99))&lang=\(language)")
      case 7: tokens.append(longWords[language] ?? word)
      case 8: tokens.append(word + generator.pick([",", ".", ";", ":", "!", "?", "…", " —", " (x)"]))
      case 9: tokens.append("***\(word)***")
      case 10: tokens.append("path/to/\(word)")
      default: tokens.append(word)
      }
    }
    var text = tokens.joined(separator: " ")
    if let first = text.first, first.isLowercase { text = first.uppercased() + text.dropFirst() }
    return text + "."
  }
}
