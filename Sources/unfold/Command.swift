import Foundation
import Unfold

/// One run of the command on valid arguments: load the tables, read the input into a paragraph, and write
/// the output in the chosen format (or run the interactive view).
struct Command {
  /// The parsed and validated arguments.
  let arguments: Arguments
  /// The process's environment: the terminal's width and colours.
  let environment: [String: String]

  /// Runs the command and returns its exit status.
  func run() -> Int32 {
    do {
      let localizations = try loadTables()
      if arguments.checkStrings { return check(localizations) }
      let width = arguments.width ?? Terminal.defaultWidth(environment: environment)
      let fonts = try loadFonts()
      if arguments.interactive && !(Terminal.inputIsTerminal && Terminal.outputIsTerminal) {
        return fail("--interactive needs a terminal on standard input and output", status: 1)
      }
      let paragraph = try read(width: width, localizations: localizations)
      let renderer = arguments.renderer(environment: environment, isTerminal: Terminal.outputIsTerminal)
      if arguments.interactive {
        var view = InteractiveView(
          paragraph: paragraph, fixedWidth: arguments.width, renderer: renderer, scrolls: arguments.scroll)
        view.asksBackground = arguments.theme == nil && renderer.colors > .ansi16
        return view.run()
      }
      let output = try render(paragraph, width: width, fonts: fonts, renderer: renderer)
      FileHandle.standardOutput.write(Data(output.utf8))
      return 0
    } catch let exit as Exit {
      return exit.status
    } catch let error as RuntimeError {
      return fail(error.message, status: 1)
    } catch {
      return fail("\(error)", status: 1)
    }
  }

  /// An exit status that ends the run early, its message already written.
  struct Exit: Error {
    /// The status.
    var status: Int32
  }

  /// The string tables of `--strings`; their problems are written, one line each, and end the run.
  func loadTables() throws -> Localizations {
    var localizations = Localizations()
    var problems: [LocalizationError] = []
    for path in arguments.strings { problems += localizations.load(path) }
    guard problems.isEmpty else {
      for problem in problems { FileHandle.standardError.write(Data("unfold: \(problem)\n".utf8)) }
      throw Exit(status: 1)
    }
    return localizations
  }

  /// The fonts that HTML and pixel widths measure in, with a note for each face left out; none for cells.
  func loadFonts() throws -> FontSet? {
    guard arguments.measuresInFonts else { return nil }
    let loaded = try arguments.loadFonts()
    loaded.notes.forEach(note)
    return loaded.fonts
  }

  /// Prints the findings of `--check-strings` and their summary; fails when there are any.
  func check(_ localizations: Localizations) -> Int32 {
    let report = localizations.check()
    for finding in report.findings { print(finding) }
    print(report.summary)
    return report.findings.isEmpty ? 0 : 1
  }

  /// The paragraph of the input: read only as much as a collapsed preview shows (``Arguments/readsAPrefix``), else
  /// all of it.
  func read(width: Int, localizations: Localizations) throws -> Paragraph {
    let input = try Input(arguments.file)
    let sourceOf = { (text: String) in
      arguments.verbatim
        ? TextSource(verbatim: text)
        : arguments.document ? TextSource(document: text) : arguments.source(key: text, localizations: localizations)
    }
    if arguments.readsAPrefix {
      let settings = arguments.paragraph(sourceOf(""))
      return arguments.paragraph(
        sourceOf(try input.readPrefix { settings.collapsedView(isSettledBy: $0, width: width) }.text))
    }
    if arguments.verbatim || arguments.document { return arguments.paragraph(sourceOf(try input.readAll())) }
    let source = sourceOf(try input.readAll())
    // Only tables and arguments can go wrong in the lookup: without either the key is its own text, and is
    // not resolved twice (a long one's markdown parsed once more for nothing).
    if !arguments.strings.isEmpty || !arguments.args.isEmpty,
      let status = report(source.resolve().diagnostics, argumentsGiven: !arguments.args.isEmpty)
    {
      throw Exit(status: status)
    }
    return arguments.paragraph(source)
  }

  /// The output of `paragraph` in the format of `--format`.
  func render(_ paragraph: Paragraph, width: Int, fonts: FontSet?, renderer: ANSIRenderer) throws -> String {
    switch arguments.format {
    case .ansi, .plain:
      return paragraph.ansi(width: width, state: arguments.state, renderer: renderer)
    case .html:
      let engine = arguments.engine ?? .any
      var pageFiles: [String]?
      let rendered =
        if let file = arguments.stylesheet {
          try page(paragraph, fonts: fonts!, engine: engine, stylesheet: file, files: &pageFiles)
        } else if let range = arguments.widthRange {
          paragraph.html(
            widths: range, fonts: fonts!, engine: engine, state: arguments.state, options: arguments.htmlOptions)
        } else {
          paragraph.html(
            width: arguments.widthPixels ?? 320, fonts: fonts!, engine: engine, state: arguments.state,
            options: arguments.htmlOptions)
        }
      for warning in rendered.diagnostics { warn(warning.message) }
      let files = pageFiles ?? Self.fontFiles(namedIn: rendered.html)
      if arguments.fontURL == nil, !arguments.standalone { noteFontFiles(files) }
      if let folder = arguments.exportFonts { try export(fonts!, files: files, to: folder) }
      return rendered.html
    case .json:
      if let range = arguments.widthRange, let fonts {
        return paragraph.json(widths: range, fonts: fonts, engine: arguments.engine ?? .any) + "\n"
      }
      if let pixels = arguments.widthPixels, let fonts {
        return paragraph.json(width: pixels, fonts: fonts, engine: arguments.engine ?? .any, state: arguments.state)
          + "\n"
      }
      return paragraph.json(width: width, state: arguments.state) + "\n"
    case .breaks:
      return paragraph.breaks()
    case .runs:
      if paragraph.source.isDocument { return Block.debugDump(paragraph.blocks) }
      return paragraph.source.resolve().text.debugDump()
    }
  }

  /// The fragment of `paragraph` for a page of many (`--stylesheet`): the stylesheet they share written into `file`
  /// (whole, at once, so that runs side by side never leave it half written), the fragment without it.
  ///
  /// `files` is set to the names of the font files the fragment loads (the stylesheet declares every face).
  func page(
    _ paragraph: Paragraph, fonts: FontSet, engine: BrowserEngine, stylesheet file: String, files: inout [String]?
  ) throws -> RenderedHTML {
    let options = arguments.htmlOptions
    var page = HTMLPage(fonts: fonts, engine: engine, options: options)
    do {
      try Data(page.stylesheet.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    } catch {
      throw RuntimeError(message: "\(file): cannot write the stylesheet: \((error as NSError).localizedDescription)")
    }
    let rendered =
      if let range = arguments.widthRange {
        page.html(paragraph, widths: range, state: arguments.state, id: options.id, language: options.language)
      } else {
        page.html(
          paragraph, width: arguments.widthPixels ?? 320, state: arguments.state, id: options.id,
          language: options.language)
      }
    files = page.fontFiles(subsets: false).map(\.name).sorted()
    return rendered
  }

  /// The names of the font files that `html` loads by URL (the last component of each), sorted.
  ///
  /// A plain search: a regular expression took 4 M instructions, a tenth of the command's start.
  static func fontFiles(namedIn html: String) -> [String] {
    var names = Set<String>()
    var rest = html[...]
    while let start = rest.range(of: "src:url(\"") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(of: "\"") else { break }
      let url = rest[..<end]
      rest = rest[end...]
      guard rest.hasPrefix("\")"), !url.hasPrefix("data:"), let name = url.split(separator: "/").last else { continue }
      names.insert(String(name))
    }
    return names.sorted()
  }

  /// Copies the files of `fonts` (and its chain) named `files` into `folder`, made if missing; a file there of the
  /// same size is left as it is, so that the runs of a page's fragments copy each file once.
  func export(_ fonts: FontSet, files: [String], to folder: String) throws {
    let named = Set(files)
    let faces = fonts.styleFaces + fonts.fallbacks.flatMap(\.faces)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      var copied = Set<String>()
      for face in faces where named.contains(face.fileName) && copied.insert(face.fileName).inserted {
        let target = URL(fileURLWithPath: folder).appendingPathComponent(face.fileName)
        let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? nil
        if size != face.data.count { try face.data.write(to: target, options: .atomic) }
      }
    } catch {
      throw RuntimeError(message: "\(folder): cannot export the fonts: \((error as NSError).localizedDescription)")
    }
  }

  /// Says once, when the fonts are named by their file names alone (no `--font-url`), which files the page needs
  /// next to it: a page elsewhere than the fonts loads none, and the browser draws its own fonts, silently.
  func noteFontFiles(_ names: [String]) {
    guard !names.isEmpty else { return }
    note(
      "the fonts are named by file name alone: the page needs \(names.joined(separator: ", ")) next to it "
        + "(--font-url PREFIX names them where the server has them; an empty PREFIX keeps the names)")
  }
}
