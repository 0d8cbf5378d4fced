/// GitHub's extended autolinks: bare `https://…` and `http://…` URLs, `www.…` addresses and e-mail
/// addresses become links, with the rules of cmark-gfm's autolink extension (the GFM spec's "Autolinks
/// (extension)").
///
/// - A URL is `http` or `https` (no letter or digit right before it), `://`, a domain, then every character up
///   to whitespace or `<`. A `www.` address starts the text, or follows whitespace or `*`, `_`, `~`, `(`; its
///   domain needs a period, and the link is `http://` and the address.
/// - A domain is letters, digits (of any script), `-`, `_` and `.`, with a letter or a digit; its last two
///   parts have no `_`. (cmark-gfm
///   0.29.0.gfm.6 takes any character after `://`, and links `1http://`: the spec's rules are kept here.)
/// - Trailing `?`, `!`, `.`, `,`, `:`, `*`, `_`, `~`, quotes, an entity such as `&amp;` and a `)` with no `(`
///   to match it are left out of the link.
/// - An e-mail address is letters, digits, `.`, `+`, `-`, `_`, `@`, then a domain with a period that ends in a
///   letter: its link is `mailto:` and the address.
///
/// The pass runs on the parsed text, not inside cmark-gfm: the extension would read a newline's sentinel as
/// part of a URL, and finds e-mail addresses only in a document's post-processing, which inline parsing
/// skips. A link never spans two runs; text already in a link or a code span is left as it is.
enum Autolinks {
  /// The text with its bare URLs, `www.` addresses and e-mail addresses made links: the same string, its runs
  /// cut where a link starts and ends (the text is not copied).
  static func linking(_ text: StyledText) -> StyledText {
    var string = text.string
    return string.withUTF8 { bytes in
      // The runs are copied only from the first run that holds a link; a text without one is returned as it is.
      var runs: [StyledText.Run] = []
      var found = false
      var runStart = 0
      for (index, run) in text.runs.enumerated() {
        defer { runStart += run.length }
        let links =
          run.style.link == nil && !run.style.traits.contains(.code)
          ? self.links(in: UnsafeBufferPointer(rebasing: bytes[runStart..<runStart + run.length])) : []
        guard !links.isEmpty else {
          if found { runs.append(run) }
          continue
        }
        if !found {
          found = true
          runs.reserveCapacity(text.runs.count + 2 * links.count + 16)
          runs.append(contentsOf: text.runs[..<index])
        }
        var start = 0
        for link in links {
          var linked = run.style
          linked.link = link.destination
          runs.append(StyledText.Run(length: link.range.lowerBound - start, style: run.style))
          runs.append(StyledText.Run(length: link.range.count, style: linked))
          start = link.range.upperBound
        }
        runs.append(StyledText.Run(length: run.length - start, style: run.style))
      }
      return found ? StyledText(text.string, runs: runs) : text
    }
  }

  /// An autolink: the bytes of the run it covers and its destination.
  struct Link: Equatable {
    var range: Range<Int>
    var destination: String
  }

  /// The autolinks in a run's UTF-8 bytes, in order, none overlapping.
  static func links(in bytes: UnsafeBufferPointer<UInt8>) -> [Link] {
    var result: [Link] = []
    var index = 0
    while index < bytes.count {
      // Only `:`, `@` and `w` can be where an autolink is found: eight bytes at a time are read, and the scan
      // goes to the first of them that is one, or past all eight.
      if index + 8 <= bytes.count {
        let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
        let starts = possibleStarts(UInt64(littleEndian: word))
        guard starts != 0 else {
          index += 8
          continue
        }
        index += starts.trailingZeroBitCount >> 3
      }
      let byte = bytes[index]
      guard byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "w") else {
        index += 1
        continue
      }
      let link: Link?
      switch byte {
      case UInt8(ascii: ":"): link = url(colon: index, bytes, after: result.last?.range.upperBound ?? 0)
      case UInt8(ascii: "w"): link = www(index, bytes)
      case UInt8(ascii: "@"): link = email(at: index, bytes, after: result.last?.range.upperBound ?? 0)
      default: link = nil
      }
      if let link {
        result.append(link)
        index = link.range.upperBound
      } else {
        index += 1
      }
    }
    return result
  }

  /// The high bit of each of eight bytes (little-endian) that may be `:`, `@` or `w`: the classic test for a
  /// zero byte, after each of the three is xored away.
  ///
  /// The lowest bit set is exact (a borrow only marks bytes above a match), so zero means none of the eight is one, and
  /// otherwise the first set byte is one.
  @inline(__always)
  private static func possibleStarts(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
    return zeros(word ^ (ones &* 0x3A)) | zeros(word ^ (ones &* 0x40)) | zeros(word ^ (ones &* 0x77))
  }

  /// `http://…` or `https://…` around the colon at `colon`; the scheme starts at `after` or later.
  private static func url(colon: Int, _ bytes: UnsafeBufferPointer<UInt8>, after floor: Int) -> Link? {
    // `://` first: most colons end a word, not a scheme.
    guard colon + 3 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
      colon >= 4
    else { return nil }
    var schemeStart = colon
    while schemeStart > floor, isASCIILetter(bytes[schemeStart - 1]) { schemeStart -= 1 }
    // The scheme is the letters' end: `xhttp://` is no URL, `(https://` is.
    let scheme = bytes[schemeStart..<colon]
    let isSecure = scheme.count >= 5 && bytes[colon - 1] == UInt8(ascii: "s")
    let start = colon - (isSecure ? 5 : 4)
    guard scheme.count >= colon - start,
      bytes[start..<start + 4].elementsEqual("http".utf8),
      start == 0 || !isASCIIAlphanumeric(bytes[start - 1]),
      let domainEnd = domain(from: colon + 3, bytes, needsPeriod: false)
    else { return nil }
    guard let end = trimmedEnd(start, pathEnd(from: domainEnd, bytes), bytes), end > colon + 3 else { return nil }
    return Link(range: start..<end, destination: String(decoding: bytes[start..<end], as: UTF8.self))
  }

  /// `www.…` at `index`, at the start of the run or after whitespace, `*`, `_`, `~` or `(`.
  private static func www(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Link? {
    guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "w"), bytes[index + 2] == UInt8(ascii: "w"),
      bytes[index + 3] == UInt8(ascii: ".")
    else { return nil }
    if index > 0 {
      let before = bytes[index - 1]
      guard isASCIIWhitespace(before) || "*_~(".utf8.contains(before) || before >= 0x80 && isSpace(bytes, before: index)
      else { return nil }
    }
    guard let domainEnd = domain(from: index, bytes, needsPeriod: true),
      let end = trimmedEnd(index, pathEnd(from: domainEnd, bytes), bytes), end > index
    else { return nil }
    let address = String(decoding: bytes[index..<end], as: UTF8.self)
    return Link(range: index..<end, destination: "http://" + address)
  }

  /// An e-mail address around the `@` at `at`, starting at `after` or later.
  private static func email(at: Int, _ bytes: UnsafeBufferPointer<UInt8>, after floor: Int) -> Link? {
    var start = at
    while start > floor, isASCIIAlphanumeric(bytes[start - 1]) || ".+-_".utf8.contains(bytes[start - 1]) {
      start -= 1
    }
    guard start < at, start == 0 || bytes[start - 1] != UInt8(ascii: "/") else { return nil }
    var end = at + 1
    var periods = 0
    while end < bytes.count {
      let byte = bytes[end]
      if isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
        end += 1
      } else if byte == UInt8(ascii: "."), end + 1 < bytes.count, isASCIIAlphanumeric(bytes[end + 1]) {
        periods += 1
        end += 1
      } else {
        break
      }
    }
    guard periods > 0, end > at + 1, isASCIILetter(bytes[end - 1]) else { return nil }
    let address = String(decoding: bytes[start..<end], as: UTF8.self)
    return Link(range: start..<end, destination: "mailto:" + address)
  }

  /// The end of a domain that starts at `start`: letters and digits of any script, `-`, `_` and `.`, with no
  /// `_` in its last two parts; `nil` when there is none (or no period and one is needed).
  private static func domain(from start: Int, _ bytes: UnsafeBufferPointer<UInt8>, needsPeriod: Bool) -> Int? {
    var index = start
    var periods = 0
    var underscoresInLast = 0
    var underscoresBeforeLast = 0
    var letters = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "_") {
        underscoresInLast += 1
      } else if byte == UInt8(ascii: ".") {
        underscoresBeforeLast = underscoresInLast
        underscoresInLast = 0
        // A period counts when the domain goes on after it (`www.` alone is no address).
        if index + 1 < bytes.count, isASCIIAlphanumeric(bytes[index + 1]) || bytes[index + 1] >= 0x80 {
          periods += 1
        }
      } else if byte == UInt8(ascii: "-") {
      } else if isASCIIAlphanumeric(byte) {
        letters += 1
      } else if byte >= 0x80, let (scalar, length) = scalar(at: index, bytes), isHostCharacter(scalar) {
        letters += 1
        index += length
        continue
      } else {
        break
      }
      index += 1
    }
    guard letters > 0, underscoresInLast == 0, underscoresBeforeLast == 0, !needsPeriod || periods > 0 else {
      return nil
    }
    return index
  }

  /// Where a link's path ends: at whitespace or `<`.
  private static func pathEnd(from start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if isASCIIWhitespace(byte) || byte == UInt8(ascii: "<") { break }
      if byte >= 0x80, let (scalar, length) = scalar(at: index, bytes) {
        if scalar.properties.isWhitespace { break }
        index += length
        continue
      }
      index += 1
    }
    return index
  }

  /// The end of a link `start..<end` without its trailing punctuation, entity and unmatched `)`.
  private static func trimmedEnd(_ start: Int, _ end: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var end = end
    while end > start {
      let last = bytes[end - 1]
      if "?!.,:*_~'\"".utf8.contains(last) {
        end -= 1
      } else if last == UInt8(ascii: ";") {
        var letters = end - 1
        while letters > start, isASCIIAlphanumeric(bytes[letters - 1]) { letters -= 1 }
        end = letters < end - 1 && letters > start && bytes[letters - 1] == UInt8(ascii: "&") ? letters - 1 : end - 1
      } else if last == UInt8(ascii: ")") {
        let slice = bytes[start..<end]
        guard slice.count(where: { $0 == UInt8(ascii: ")") }) > slice.count(where: { $0 == UInt8(ascii: "(") })
        else { break }
        end -= 1
      } else {
        break
      }
    }
    return end > start ? end : nil
  }

  /// A letter, digit, mark or symbol of any script: not a space, not punctuation.
  private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isWhitespace { return false }
    switch scalar.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation, .control, .format, .unassigned, .surrogate, .privateUse:
      return false
    default: return true
    }
  }

  /// Whether the character that ends right before `index` is whitespace.
  private static func isSpace(_ bytes: UnsafeBufferPointer<UInt8>, before index: Int) -> Bool {
    var start = index - 1
    while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return scalar(at: start, bytes).map { $0.0.properties.isWhitespace } ?? false
  }

  /// The scalar whose UTF-8 starts at `index`, and its length.
  private static func scalar(at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int)? {
    var iterator = bytes[index...].makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
    return (scalar, UTF8.width(scalar))
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool { isASCIILetter(byte) || (0x30...0x39).contains(byte) }
  private static func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
