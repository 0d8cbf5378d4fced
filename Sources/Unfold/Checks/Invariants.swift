/// The promises every output keeps, as checks that describe the first broken one: the property tests and
/// the fuzzers (`Fuzz/`) run the same code over generated and mutated input.
enum Invariants {
  /// The lines tile the text (each starts where the previous ended, from 0 to the end of a complete
  /// layout), and no line is wider than the width unless its content is one grapheme cluster.
  static func layoutViolation(_ layout: LineLayout) -> String? {
    let string = layout.text.string
    var expectedStart = 0
    for (index, line) in layout.lines.enumerated() {
      guard line.range.lowerBound == expectedStart else {
        return "line \(index) starts at \(line.range.lowerBound), not \(expectedStart)"
      }
      guard line.range.contains(line.contentEnd) || line.contentEnd == line.range.upperBound else {
        return "line \(index) ends its content at \(line.contentEnd), outside \(line.range)"
      }
      expectedStart = line.range.upperBound
      if line.width > layout.width && string.utf8Slice(line.contentRange).count > 1 {
        return "line \(index) is \(line.width) wide at width \(layout.width) and holds more than one cluster"
      }
    }
    if layout.isComplete && expectedStart != string.utf8.count {
      return "the lines end at \(expectedStart), not at the end of the text (\(string.utf8.count))"
    }
    return nil
  }

  /// Every fast fitter lays out terminal cells as ``ReferenceLayout`` does: a fresh layout (a window of segments
  /// at a time), one stopped by a line limit (a segment at a time), a prepared text's relayout (runs of plain
  /// segments a line at a time) and its count of lines, and the lazy stream of an expanded view, for a text the
  /// reference models.
  static func referenceViolation(_ text: StyledText, width: Int) -> String? {
    let measurer = TerminalCells()
    guard let expected = ReferenceLayout.lines(text, measurer: measurer, width: LineWidth(width)) else { return nil }
    func differs(_ lines: [LineLayout.Line], _ fitter: String) -> String? {
      guard lines != expected else { return nil }
      let index = lines.indices.first { $0 >= expected.count || lines[$0] != expected[$0] } ?? lines.count
      let line = index < lines.count ? String(describing: lines[index]) : "missing"
      let reference = index < expected.count ? String(describing: expected[index]) : "none"
      return "\(fitter) at width \(width): line \(index) is \(line), the reference's \(reference)"
    }
    if let violation = differs(LineLayout(text, measurer: measurer, width: width).lines, "a layout") {
      return violation
    }
    // Stopped one line before the end: the reference's lines up to the limit, and not complete.
    let limit = max(1, expected.count - 1)
    let limited = LineLayout(text, measurer: measurer, width: width, lineLimit: limit)
    guard limited.lines == Array(expected.prefix(limit)), limited.isComplete == (expected.count <= limit) else {
      return "a layout limited to \(limit) lines at width \(width) is not the reference's first lines"
    }
    let prepared = PreparedText(text, measurer: measurer)
    if let violation = differs(prepared.layout(width: width).lines, "a relayout") { return violation }
    let counted = prepared.lineCount(width: width)
    guard counted == expected.count else {
      return "a count of lines at width \(width) is \(counted), the reference's \(expected.count)"
    }
    if CellStream.applies(to: text, measurer: measurer, breaker: .unicode) {
      var stream = CellStream(text, measurer: measurer, breaker: .unicode, width: LineWidth(width))
      var streamed: [LineLayout.Line] = []
      while let line = stream.next() { streamed.append(line) }
      if let violation = differs(streamed, "the lazy stream") { return violation }
    }
    return nil
  }

  /// The lazy stream of an expanded terminal view (``CellStream``, which decides opportunities only where a line
  /// ends) has the lines of the general stream (``SegmentStream``, which decides every one), for a text it applies to.
  static func lazyStreamViolation(_ text: StyledText, width: Int) -> String? {
    let measurer = TerminalCells()
    guard CellStream.applies(to: text, measurer: measurer, breaker: .unicode) else { return nil }
    var general = SegmentStream(text, measurer: measurer, breaker: .unicode, width: LineWidth(width))
    var lazy = CellStream(text, measurer: measurer, breaker: .unicode, width: LineWidth(width))
    var index = 0
    while true {
      let (expected, line) = (general.next(), lazy.next())
      guard line == expected else {
        return
          "line \(index) of the lazy stream at width \(width) is \(String(describing: line)), not \(String(describing: expected))"
      }
      guard line != nil else { return nil }
      index += 1
    }
  }

  /// A relayout of the prepared text lays out as a fresh layout does: the same lines, the same completeness,
  /// the same break opportunities inside each line (the prepared text places runs of plain segments a line
  /// at a time; the fresh layout fits segment by segment), and its count of lines made without them.
  static func relayoutViolation(_ prepared: PreparedText, width: Int, lineLimit: Int?) -> String? {
    let relaid = prepared.layout(width: width, lineLimit: lineLimit)
    let fresh = LineLayout(
      prepared.text, measurer: prepared.measurer, breaker: prepared.breaker, width: width, lineLimit: lineLimit)
    guard relaid.lines == fresh.lines else {
      let index =
        relaid.lines.indices.first { $0 >= fresh.lines.count || relaid.lines[$0] != fresh.lines[$0] }
        ?? relaid.lines.count
      return "a relayout at \(width) differs from a fresh layout at line \(index) of \(fresh.lines.count)"
    }
    guard relaid.isComplete == fresh.isComplete else {
      return "a relayout at \(width) is complete: \(relaid.isComplete), a fresh layout: \(fresh.isComplete)"
    }
    for (index, line) in fresh.lines.enumerated()
    where Array(relaid.breakOffsets(of: line)) != Array(fresh.breakOffsets(of: line)) {
      return "a relayout at \(width) has other break offsets on line \(index)"
    }
    // Counted without the lines: the fresh layout's number of lines, or one above the limit when it stopped there.
    let counted = prepared.lineCount(width: width, lineLimit: lineLimit)
    let expected = fresh.isComplete ? fresh.lines.count : fresh.lines.count + 1
    guard counted == expected else {
      return "a count of lines at \(width) is \(counted), a fresh layout's \(expected)"
    }
    return nil
  }

  /// Collapsed, at most the line limit of text lines (a toggle below takes a line of its own), and
  /// `isTruncated` exactly when the whole layout needs more lines than the limit; expanded, each line draws
  /// its content, soft hyphens left out.
  static func truncationViolation(
    _ text: StyledText, measurer: any TextMeasurer, width: Int, options: TruncationOptions
  ) -> String? {
    let whole = LineLayout(text, measurer: measurer, width: width)
    if let violation = layoutViolation(whole) { return violation }
    let collapsed = Truncator.truncate(text, measurer: measurer, width: width, options: options, state: .collapsed)
    let limit = options.effectiveLineLimit
    let needsMore = whole.lines.count > limit
    guard collapsed.isTruncated == needsMore else {
      return "isTruncated is \(collapsed.isTruncated) for \(whole.lines.count) lines at limit \(limit)"
    }
    let textLines = collapsed.lines.filter { line in
      line.fragments.isEmpty || line.fragments.contains { !$0.isToggle }
    }
    guard textLines.count <= limit else {
      return "\(textLines.count) text lines collapsed at limit \(limit)"
    }
    let expanded = Truncator.truncate(
      whole, options: TruncationOptions(lineLimit: limit, lessLabel: nil), state: .expanded)
    guard expanded.lines.count == whole.lines.count else {
      return "\(expanded.lines.count) lines drawn for \(whole.lines.count) laid out"
    }
    for (index, (drawn, line)) in zip(expanded.lines, whole.lines).enumerated() {
      var content = ""
      content.unicodeScalars.append(
        contentsOf: text.string.utf8Slice(line.contentRange).unicodeScalars.filter { $0 != "\u{AD}" })
      let shown = drawn.fragments.filter { $0.role == .text }.map(\.text).joined()
      guard shown == content else {
        return "line \(index) draws \(shown.debugDescription), not \(content.debugDescription)"
      }
    }
    return nil
  }

  /// A document's views at `width` (``DocumentLines``): collapsed, at most the line limit of text lines (a toggle below
  /// takes a line of its own), the more label shown when the document is truncated (unless wider than the width), and
  /// truncated exactly when the expanded document needs more lines than the limit; expanded, every character of its
  /// blocks' text drawn as text, in some order (a table's wrapped cells interleave), soft hyphens left out.
  static func documentViolation(_ paragraph: Paragraph, width: Int) -> String? {
    let limit = paragraph.options.effectiveLineLimit
    let collapsed = paragraph.truncated(width: width, state: .collapsed)
    let expanded = paragraph.truncated(width: width, state: .expanded)
    guard let count = expanded.lineCount else { return "an expanded document without a line count" }
    guard collapsed.isTruncated == (count > limit) else {
      return "isTruncated is \(collapsed.isTruncated) for a document of \(count) lines at limit \(limit)"
    }
    let textLines = collapsed.lines.filter { $0.fragments.isEmpty || $0.fragments.contains { !$0.isToggle } }
    guard textLines.count <= limit else { return "\(textLines.count) text lines of a document at limit \(limit)" }
    let label = paragraph.options.moreLabel
    if collapsed.isTruncated, paragraph.options.toggle != .none, !label.isEmpty,
      paragraph.terminalCells.width(of: label) <= max(1, width),
      !collapsed.lines.contains(where: { $0.fragments.contains { $0.role == .moreLabel } })
    {
      return "a truncated document without its more label"
    }
    let characters = { (text: String) in
      text.unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "\u{AD}" }.map(\.value).sorted()
    }
    let shown = expanded.lines.flatMap(\.fragments).filter { $0.role == .text }.map(\.text).joined()
    guard characters(shown) == characters(paragraph.source.resolve().text.string) else {
      return "the expanded document does not draw its text"
    }
    return nil
  }

  /// A string whose bytes are not UTF-8 (which a string made of bytes taken for UTF-8 unchecked could be).
  static func invalidUTF8(_ text: String) -> String? {
    String(validating: Array(text.utf8), as: UTF8.self) == nil ? "the string's bytes are not UTF-8" : nil
  }

  /// Terminal output holds no control character but newlines and the renderer's own sequences: SGR
  /// (`ESC [ digits and ; m`) and OSC 8 links (`ESC ] 8 ; … ESC \`).
  static func foreignControl(inTerminalOutput output: String) -> String? {
    let scalars = Array(output.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\u{1B}" && index + 1 < scalars.count {
        if scalars[index + 1] == "[" {
          var end = index + 2
          while end < scalars.count, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
          guard end < scalars.count, scalars[end] == "m" else { return "an escape sequence other than SGR at \(index)" }
          index = end + 1
          continue
        }
        if scalars[index + 1] == "]", index + 3 < scalars.count, scalars[index + 2] == "8", scalars[index + 3] == ";" {
          var end = index + 4
          while end + 1 < scalars.count, !(scalars[end] == "\u{1B}" && scalars[end + 1] == "\\") {
            guard scalars[end].value >= 0x20, !(0x7F...0x9F).contains(scalars[end].value) else {
              return "a control inside a link at \(end)"
            }
            end += 1
          }
          guard end + 1 < scalars.count else { return "an unterminated link at \(index)" }
          index = end + 2
          continue
        }
      }
      if (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) {
        return "control U+\(String(scalar.value, radix: 16, uppercase: true)) at \(index)"
      }
      index += 1
    }
    return nil
  }

  /// HTML output is well formed (every element closed in order, void elements aside; every attribute value
  /// quoted; no `<` outside a tag) and executes nothing but the renderer's one toggle script: no other
  /// script element, event handler attribute or script URL.
  static func htmlViolation(_ html: String) -> String? {
    let void: Set<String> = ["br", "wbr", "input", "meta", "img", "hr", "link", "source", "col"]
    var scalars = Array(html.unicodeScalars)
    // The renderer's own script, at most one, is taken out first: its code may hold `<`.
    let scriptOpen = Array("<script".unicodeScalars)
    let scriptClose = Array("</script>".unicodeScalars)
    func find(_ needle: [Unicode.Scalar], from start: Int) -> Int? {
      guard needle.count <= scalars.count else { return nil }
      var index = start
      while index + needle.count <= scalars.count {
        if scalars[index] == needle[0] && Array(scalars[index..<index + needle.count]) == needle { return index }
        index += 1
      }
      return nil
    }
    if let open = find(scriptOpen, from: 0) {
      guard let close = find(scriptClose, from: open) else { return "an unclosed script" }
      scalars.removeSubrange(open..<close + scriptClose.count)
      if find(scriptOpen, from: 0) != nil { return "a second script element" }
    }
    var stack: [String] = []
    var index = 0
    while index < scalars.count {
      guard scalars[index] == "<" else {
        index += 1
        continue
      }
      guard let end = scalars[index...].firstIndex(of: ">") else { return "a < with no tag at \(index)" }
      let tag = String(String.UnicodeScalarView(scalars[index + 1..<end]))
      index = end + 1
      if tag.hasPrefix("!") { continue }  // <!doctype html>
      let closing = tag.hasPrefix("/")
      let body = closing ? tag.dropFirst() : tag[...]
      let name = String(body.prefix { $0.isLetter || $0.isNumber || $0 == "-" }).lowercased()
      guard !name.isEmpty else { return "a < that starts no tag: <\(tag)>" }
      // Attributes: every value quoted, no event handler, a URL only of an allowed scheme.
      var inQuote = false
      var afterEquals = false
      var attribute = ""
      var value = ""
      for character in body.dropFirst(name.count) {
        if inQuote {
          if character == "\"" {
            inQuote = false
            if ["href", "src", "action", "formaction", "xlink:href"].contains(attribute.lowercased()),
              let scheme = urlScheme(value), !["http", "https", "mailto"].contains(scheme)
            {
              return "a \(scheme): URL in <\(tag)>"
            }
          } else {
            value.append(character)
          }
          continue
        }
        if afterEquals && character != "\"" { return "an unquoted attribute value in <\(tag)>" }
        afterEquals = false
        if character == "\"" {
          inQuote = true
          value = ""
        } else if character == "=" {
          if attribute.lowercased().hasPrefix("on") { return "an event handler in <\(tag)>" }
          afterEquals = true
        } else if character.isWhitespace {
          attribute = ""
        } else {
          attribute.append(character)
        }
      }
      if inQuote { return "an unbalanced quote in <\(tag)>" }
      if closing {
        guard stack.last == name else { return "</\(name)> closes \(stack.last.map { "<\($0)>" } ?? "nothing")" }
        stack.removeLast()
      } else if !void.contains(name) && !tag.hasSuffix("/") {
        stack.append(name)
      }
    }
    return stack.isEmpty ? nil : "unclosed \(stack.map { "<\($0)>" }.joined(separator: ", "))"
  }

  /// The scheme of an attribute's URL as a browser reads it, lowercased, or nil for a relative one: character
  /// references decoded (named ones of markup, numeric ones), the C0 controls and spaces before it and the tabs
  /// and newlines inside it dropped (WHATWG URL), then the ASCII letters, digits, `+`, `-` and `.` before the
  /// first `:`, starting with a letter. (A URL such as `https://ok.example` followed by `javascript:…` has the
  /// scheme `https`: a check for the text `javascript:` anywhere in a tag took it for a script, the one false
  /// alarm the fuzzer raised.)
  static func urlScheme(_ attributeValue: String) -> String? {
    let named: [String: Unicode.Scalar] = ["quot": "\"", "lt": "<", "gt": ">", "amp": "&", "apos": "'"]
    var scalars: [Unicode.Scalar] = []
    var rest = Substring(attributeValue)
    while let ampersand = rest.firstIndex(of: "&") {
      scalars += rest[..<ampersand].unicodeScalars
      rest = rest[ampersand...].dropFirst()
      guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
        scalars.append("&")
        continue
      }
      let name = rest[..<semicolon]
      let number =
        name.hasPrefix("#x") || name.hasPrefix("#X")
        ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
      if let scalar = named[String(name)] ?? number.flatMap(Unicode.Scalar.init) {
        scalars.append(scalar)
        rest = rest[semicolon...].dropFirst()
      } else {
        scalars.append("&")
      }
    }
    scalars += rest.unicodeScalars
    var url = scalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }[...]
    while let first = url.first, first.value <= 0x20 { url.removeFirst() }
    guard let colon = url.firstIndex(of: ":") else { return nil }
    let scheme = url[..<colon]
    func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
    guard let first = scheme.first, isLetter(first),
      scheme.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
    else { return nil }
    return String(String.UnicodeScalarView(scheme)).lowercased()
  }
}
