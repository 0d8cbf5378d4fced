import UnfoldCorpus

/// Paragraphs in scripts that DejaVu Sans does not draw, for the browser tests of the font fallback chain:
/// Chinese, Japanese, Korean, Thai and Burmese (whose words a dictionary finds), Latin with emoji (modifier, ZWJ, flag, keycap and variation sequences), and
/// Latin mixed with CJK; with inline markdown, links, code and numbers.
///
/// The words are the project's own.
public enum FallbackCorpus {
  /// The generator of the corpus.
  public typealias Generator = SplitMix64

  /// Each language's words and what joins them (CJK text has no spaces between words).
  public static let words: [String: (words: [String], separator: String)] = [
    "zh": (
      [
        "排版", "引擎", "每个", "词语", "只测量", "一次", "然后", "为任何", "宽度", "断行", "读者", "无需", "等待", "预览",
        "保持", "简短", "诚实", "展开", "更多", "内容", "，", "。", "「引用」", "（注释）", "第42页",
      ], ""
    ),
    "ja": (
      [
        "レイアウト", "エンジンは", "それぞれの", "言葉を", "一度だけ", "測り", "どんな", "幅でも", "行を", "折り返す", "読者は",
        "待たない", "プレビューは", "短く", "正直で", "ある", "、", "。", "「続き」", "ひらがな", "カタカナ", "漢字",
      ], ""
    ),
    "ko": (
      [
        "레이아웃", "엔진은", "모든", "단어를", "한", "번만", "측정하고", "어떤", "너비에서도", "줄을", "나눕니다", "독자는",
        "기다리지", "않습니다", "미리보기는", "짧고", "정직합니다", "더보기", "한국어", "문장",
      ], " "
    ),
    "emoji": (
      [
        "the", "preview", "keeps", "every", "reaction", "short", "and", "honest", "thanks", "great", "post", "👍",
        "👍🏽", "👋🏿", "❤️", "☺️", "😀", "🎉", "👨‍👩‍👧", "🧑🏻‍💻", "🏳️‍🌈", "🇫🇷", "🇯🇵", "1️⃣", "#️⃣", "✔️",
        "🙂🙂🙂", "(🍕)", "🚀!",
      ], " "
    ),
    "th": (
      [
        "ภาษา", "ไทย", "เขียน", "ติดกัน", "ไม่มี", "ช่องว่าง", "ระหว่าง", "คำ", "ผู้อ่าน", "จะ", "เห็น", "ข้อความ", "สั้นๆ",
        "ก่อน", "กด", "อ่านต่อ", "เครื่องมือ", "นี้", "วัด", "ความกว้าง", "ของ", "ทุก", "บรรทัด", " ", "น้ำ", "กิน",
      ], ""
    ),
    "my": (
      [
        "မြန်မာ", "ဘာသာ", "စကား", "တွင်", "စကားလုံး", "များ", "ကြား", "နေရာလွတ်", "မရှိ", "ပါ", "စာဖတ်သူ", "သည်",
        "တိုတောင်း", "သော", "စာသား", "ကို", "မြင်", "ရ", " ", "၊", "။",
      ], ""
    ),
    "lo": (
      [
        "ພາສາ", "ລາວ", "ຂຽນ", "ຕິດກັນ", "ບໍ່ມີ", "ບ່ອນຫວ່າງ", "ລະຫວ່າງ", "ຄຳ", "ຜູ້ອ່ານ", "ຈະ", "ເຫັນ", "ຂໍ້ຄວາມ", "ສັ້ນໆ",
        "ກ່ອນ", "ກົດ", "ອ່ານຕໍ່", "ເຄື່ອງມື", "ນີ້", "ວັດ", "ຄວາມກວ້າງ", "ຂອງ", "ທຸກ", "ແຖວ", " ", "ນ້ຳ", "ກິນ", "໑໒໓",
      ], ""
    ),
    "km": (
      [
        "ភាសា", "ខ្មែរ", "សរសេរ", "ជាប់គ្នា", "គ្មាន", "ដកឃ្លា", "រវាង", "ពាក្យ", "អ្នកអាន", "នឹង", "ឃើញ", "សារ", "ខ្លី",
        "មុន", "ចុច", "អានបន្ត", "ឧបករណ៍", "នេះ", "វាស់", "ទទឹង", "របស់", "គ្រប់", "បន្ទាត់", " ", "ទឹក", "ញ៉ាំ", "។",
      ], ""
    ),
    "mixed": (
      [
        "Swift", "で", "書かれた", "engine", "は", "每个", "word", "を", "measures", "한", "번", "API", "v2.0",
        "中文", "and", "日本語", "mixed", "텍스트", "2024年", "6月", "100%", "OK",
      ], " "
    ),
    "ar": (
      [
        "محرك", "التخطيط", "يقيس", "كل", "كلمة", "مرة", "واحدة", "ثم", "يكسر", "الأسطر", "لأي", "عرض", "القارئ", "لا",
        "ينتظر", "المعاينة", "قصيرة", "وصادقة", "اقرأ", "المزيد", "مُحَرِّك", "الكلام", "،", "؟", "١٢٣", "(نص)",
      ], " "
    ),
    "fa": (
      [
        "موتور", "چیدمان", "هر", "واژه", "را", "یک", "بار", "اندازه", "می‌گیرد", "خواننده", "منتظر", "نمی‌ماند",
        "پیش‌نمایش", "کوتاه", "و", "صادق", "است", "بیشتر", "بخوانید", "۱۴۰۳", "گزارش", "ژرف", "،",
      ], " "
    ),
    "ur": (
      [
        "یہ", "انجن", "ہر", "لفظ", "کو", "ایک", "بار", "ناپتا", "ہے", "قاری", "انتظار", "نہیں", "کرتا", "مختصر",
        "پیش", "نظارہ", "مزید", "پڑھیں", "ٹوٹی", "ڈور", "گھر", "۔", "،",
      ], " "
    ),
    "he": (
      [
        "מנוע", "הפריסה", "מודד", "כל", "מילה", "פעם", "אחת", "ושובר", "שורות", "בכל", "רוחב", "הקורא", "לא", "מחכה",
        "תצוגה", "מקדימה", "קצרה", "וכנה", "קרא", "עוד", "שָׁלוֹם", "סֵפֶר", "״ציטוט״", "(הערה)",
      ], " "
    ),
    "hi": (
      [
        "यह", "इंजन", "हर", "शब्द", "को", "एक", "बार", "मापता", "है", "और", "किसी", "भी", "चौड़ाई", "पर", "पंक्तियाँ",
        "तोड़ता", "पाठक", "प्रतीक्षा", "नहीं", "करता", "पूर्वावलोकन", "छोटा", "क्षमा", "श्रृंखला", "।", "२०२४",
      ], " "
    ),
    "bn": (
      [
        "এই", "ইঞ্জিন", "প্রতিটি", "শব্দ", "একবার", "মাপে", "এবং", "যেকোনো", "প্রস্থে", "লাইন", "ভাঙে", "পাঠক", "অপেক্ষা",
        "করে", "না", "পূর্বরূপ", "ছোট", "ও", "সৎ", "আরও", "পড়ুন", "স্ক্রিপ্ট", "।", "১২৩",
      ], " "
    ),
    "vi": (
      [
        "Công", "cụ", "này", "đo", "mỗi", "từ", "một", "lần", "rồi", "ngắt", "dòng", "ở", "bất", "kỳ", "độ", "rộng",
        "nào", "người", "đọc", "không", "phải", "chờ", "đợi", "xem", "thêm", "Tiê\u{0301}ng", "Vie\u{0323}\u{0302}t",
      ], " "
    ),
    "rtl-mixed": (
      [
        "The", "engine", "measures", "كلمة", "עברית", "API", "v2.0", "مرحبا", "שלום", "100%", "2024", "(RTL)", "read",
        "more", "نص", "عربي", "טקסט", "preview", "«اقتباس»", "-",
      ], " "
    ),
  ]

  /// The languages of the corpus: CJK, the four of Line_Break SA, emoji and mixed text.
  public static let languages = ["zh", "ja", "ko", "th", "lo", "km", "my", "emoji", "mixed"]

  /// The languages whose scripts shape words as a whole (joining, conjuncts, marks) or run right to left, and
  /// Vietnamese with its stacked diacritics.
  public static let shapingLanguages = ["ar", "fa", "ur", "he", "hi", "bn", "vi", "rtl-mixed"]

  /// `count` paragraphs per language, each with its language (`und` for the emoji and mixed ones).
  public static func paragraphs(perLanguage count: Int, languages: [String] = languages) -> [(
    language: String, markdown: String
  )] {
    var result: [(language: String, markdown: String)] = []
    for language in languages {
      var generator = Generator(state: UInt64(language.unicodeScalars.reduce(11) { $0 &* 31 &+ $1.value }))
      for _ in 0..<count {
        let tag = ["emoji", "mixed", "rtl-mixed"].contains(language) ? "und" : language
        result.append((tag, paragraph(language, &generator)))
      }
    }
    return result
  }

  /// A paragraph of `language`'s words, some of them styled, linked or code, drawn with `generator`.
  public static func paragraph(_ language: String, _ generator: inout Generator) -> String {
    guard let (words, separator) = Self.words[language] else { return "" }
    var tokens: [String] = []
    let length = 10 + generator.below(40)
    for _ in 0..<length {
      let word = generator.pick(words)
      switch generator.below(30) {
      case 0: tokens.append("**\(word)\(separator)\(generator.pick(words))**")
      case 1: tokens.append("*\(word)*")
      case 2: tokens.append("~~\(word)~~")
      case 3: tokens.append("`\(generator.pick(["let x = 42", "foo()", "a && b"]))`")
      case 4: tokens.append("[\(word)](https://example.com/\(language)/\(generator.below(999)))")
      case 5: tokens.append(generator.pick(["$19.99", "42%", "1,234.56", "2024-06-01", "v1.2.3", "12:30"]))
      default: tokens.append(word)
      }
    }
    return tokens.joined(separator: separator)
  }

  /// `count` paragraphs per language in which a third of the words carry a style over part of them (`*head*tail`,
  /// `head*tail*`, `**head**tail`, `head~~tail~~`, `[head](url)tail`, `head[tail](url)`), cut at a random code point:
  /// inside a grapheme cluster too, before a mark or inside an emoji sequence, as pasted text has it.
  public static func insideWordParagraphs(perLanguage count: Int, languages: [String]) -> [(
    language: String, markdown: String
  )] {
    var result: [(language: String, markdown: String)] = []
    for language in languages {
      guard let (words, separator) = Self.words[language] else { continue }
      var generator = Generator(state: UInt64(language.unicodeScalars.reduce(29) { $0 &* 31 &+ $1.value }))
      for _ in 0..<count {
        var tokens: [String] = []
        for _ in 0..<(10 + generator.below(40)) {
          let word = generator.pick(words)
          let scalars = Array(word.unicodeScalars)
          guard scalars.count > 1, generator.below(3) == 0 else {
            tokens.append(word)
            continue
          }
          let cut = 1 + generator.below(scalars.count - 1)
          let head = String(String.UnicodeScalarView(scalars[..<cut]))
          let tail = String(String.UnicodeScalarView(scalars[cut...]))
          let url = "https://example.com/\(language)/\(generator.below(999))"
          tokens.append(
            [
              "*\(head)*\(tail)", "\(head)*\(tail)*", "**\(head)**\(tail)", "\(head)~~\(tail)~~",
              "[\(head)](\(url))\(tail)",
              "\(head)[\(tail)](\(url))",
            ][generator.below(6)])
        }
        let tag = ["emoji", "mixed", "rtl-mixed"].contains(language) ? "und" : language
        result.append((tag, tokens.joined(separator: separator)))
      }
    }
    return result
  }
}
