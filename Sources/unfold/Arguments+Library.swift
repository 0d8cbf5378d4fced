import Foundation
import Unfold

/// What the arguments ask of the library: the truncation options, the fonts, the colours, the renderer, the
/// source and the paragraph. Nothing here reads the input or writes the output.
extension Arguments {
  /// The state shown first.
  var state: DisplayState { expanded ? .expanded : .collapsed }

  /// The truncation options: the preset's, or the defaults, with each flag given over them.
  var truncationOptions: TruncationOptions {
    var options = preset?.options ?? TruncationOptions()
    if linesGiven || preset == nil { options.lineLimit = lines }
    if moreLabelGiven { options.moreLabel = moreLabel }
    if let lessLabel { options.lessLabel = lessLabel }
    if let ellipsis { options.ellipsis = ellipsis }
    if let truncation { options.mode = truncation }
    if let toggle { options.toggle = toggle }
    if collapseBlankLines { options.collapsesBlankLines = true }
    if reserveSpace { options.reservesSpace = true }
    return options
  }

  /// Whether the output measures text in fonts: html, and json in px.
  var measuresInFonts: Bool { format == .html || widthPixels != nil }

  /// The fonts that html and json in px measure in, with their fallback chain, and the notes on what was left out
  /// or drawn by another face.
  func loadFonts() throws(RuntimeError) -> (fonts: FontSet, notes: [String]) {
    var fonts: FontSet
    var notes: [String] = []
    do throws(any Error) {
      if let folder = fontDirectory {
        let reading = try FontSet.folder(folder, size: fontSize, lineHeight: lineHeight)
        fonts = reading.fonts
        for file in reading.leftOut where !file.wasRead { notes.append("\(file.path): left out: \(file.reason)") }
        let others = reading.leftOut.filter(\.wasRead)
        if !others.isEmpty {
          let names = others.map { URL(fileURLWithPath: $0.path).lastPathComponent }
          notes.append(
            "\(folder): drawing in \(reading.fonts.regular.familyName ?? reading.fonts.regular.path); "
              + "\(others.count) other faces left out (\(names.joined(separator: ", ")))")
        }
      } else if !self.fonts.isEmpty {
        fonts = try FontSet.files(self.fonts, size: fontSize, lineHeight: lineHeight)
        notes += Self.facesDrawnByOthers(fonts)
      } else {
        fonts = try FontSet.dejaVu(size: fontSize, lineHeight: lineHeight, fallbacks: [])
      }
    } catch {
      let hint = self.fonts.isEmpty && fontDirectory == nil ? " (install fonts-dejavu-core, or give --font)" : ""
      throw RuntimeError(message: "\(error)\(hint)")
    }
    do {
      if let families = fallbacks {
        var chain: [FontFamily] = []
        for files in families { chain.append(try FontFamily.files(files)) }
        fonts.fallbacks = chain
      } else {
        fonts.fallbacks = FontFamily.notoFallbacks()
      }
    } catch {
      throw RuntimeError(message: "\(error) (a --fallback file; give another, or --no-fallback)")
    }
    fonts.kerningAndLigatures = kerning
    return (fonts, notes)
  }

  /// A note for each style that no `--font` file gave, and the face that draws it instead: the page sets
  /// `font-synthesis: none`, so that the browser draws what was measured, and a bold drawn in a regular face is not
  /// bold.
  static func facesDrawnByOthers(_ fonts: FontSet) -> [String] {
    let (regular, bold, italic) = (fonts.regular.path, fonts.bold.path, fonts.italic.path)
    let places = [
      ("bold", fonts.bold, bold == regular), ("italic", fonts.italic, italic == regular),
      ("bold italic", fonts.boldItalic, [regular, bold, italic].contains(fonts.boldItalic.path)),
      ("code", fonts.monospace, fonts.monospace.path == regular),
    ]
    var byFace: [(file: String, styles: [String])] = []
    for (style, face, isMissing) in places where isMissing {
      let file = URL(fileURLWithPath: face.path).lastPathComponent
      if let index = byFace.firstIndex(where: { $0.file == file }) {
        byFace[index].styles.append(style)
      } else {
        byFace.append((file, [style]))
      }
    }
    return byFace.map { file, styles in
      let list = styles.count == 1 ? styles[0] : styles.dropLast().joined(separator: ", ") + " or " + styles.last!
      return
        "the --font files have no \(list) face: drawn in \(file) as it is (the page turns font synthesis off, so no bold or slant is made up)"
    }
  }

  /// The table a key is looked up in: `--table`, else a single table file's own name (`Comments.xcstrings` holds
  /// the table `Comments`), else `Localizable`.
  var lookupTable: String {
    if let table { return table }
    var isFolder: ObjCBool = false
    guard strings.count == 1, FileManager.default.fileExists(atPath: strings[0], isDirectory: &isFolder),
      !isFolder.boolValue
    else { return "Localizable" }
    return URL(fileURLWithPath: strings[0]).deletingPathExtension().lastPathComponent
  }

  /// The source of a key read from the input (its file's line end left out), looked up in `localizations`.
  func source(key: String, localizations: Localizations) -> TextSource {
    var key = key
    // A key read from a file or a pipe ends with the file's line end, which is not part of the key.
    if key.hasSuffix("\n") || key.hasSuffix("\r\n") { key.removeLast() }
    let localizedKey = args.isEmpty ? LocalizedKey(key) : LocalizedKey(key, arguments: args.map(FormatArgument.text))
    return TextSource(
      localizedKey,
      TextSource.Localization(
        localizations, locale: locale, table: lookupTable, device: device, autolinks: autolinks))
  }

  /// The paragraph of `source` with the options the flags give.
  func paragraph(_ source: TextSource) -> Paragraph {
    var paragraph = Paragraph(source, options: truncationOptions, cellWidths: widths, breakRules: breaks)
      .scrollable(scroll)
    if let textStyle { paragraph = paragraph.font(textStyle) }
    // A key's autolinks are its lookup's; a document's are set here.
    return source.isDocument ? paragraph.maxHeight(maxHeight).autolinks(autolinks) : paragraph.maxHeight(maxHeight)
  }

  /// Whether a collapsed terminal preview reads only as much of the input as settles it: of verbatim text, a
  /// document, or a key that is its own text (no tables to look it up in, no arguments to format).
  var readsAPrefix: Bool {
    (verbatim || document || (strings.isEmpty && args.isEmpty && !checkStrings)) && state == .collapsed
      && !interactive && !scroll && [.ansi, .plain].contains(format)
      && paragraph(TextSource(verbatim: "")).collapsedViewNeedsOnlyAPrefix
  }

  /// The colour level of the terminal's output.
  func colors(environment: [String: String], isTerminal: Bool) -> ColorLevel {
    switch color {
    case .auto: ColorLevel.detect(environment: environment, isTerminal: isTerminal)
    case .always:
      max(.ansi16, ColorLevel.detect(environment: ["FORCE_COLOR": "1"].merging(environment) { $1 }, isTerminal: true))
    case .never: .none
    case .ansi16: .ansi16
    case .ansi256: .ansi256
    case .truecolor: .truecolor
    }
  }

  /// The renderer of the terminal's output: its colours, the toggle's style, the fade's background, the order of
  /// right-to-left text.
  func renderer(environment: [String: String], isTerminal: Bool) -> ANSIRenderer {
    let background: ANSIRenderer.Background =
      switch theme {
      case .light: .light
      case .dark: .dark
      case nil: .detect(environment: environment)
      }
    var renderer = ANSIRenderer(
      colors: format == .plain ? .none : colors(environment: environment, isTerminal: isTerminal),
      toggleStyle: moreStyle ?? ANSIRenderer.defaultToggleStyle, background: background)
    renderer.reordersRightToLeft = bidi == .visual
    return renderer
  }

  /// How the html is written: whole page or fragment, the fonts' URL, the id, the page's language.
  var htmlOptions: HTMLOptions {
    var options = HTMLOptions(standalone: standalone)
    if let fontURL { options.fontSource = .url(prefix: fontURL) }
    options.id = id
    if !verbatim && !strings.isEmpty { options.language = locale }
    return options
  }
}
