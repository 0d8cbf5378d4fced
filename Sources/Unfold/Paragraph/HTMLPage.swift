import Foundation

/// A page of many fragments: the stylesheet they share, written once, and ids that stay unique on the page.
///
/// A fragment from ``Paragraph/html(width:fonts:engine:state:options:)`` carries its whole stylesheet (the font faces
/// and about 2.5 KB of rules), and two renderings of the same text, width and options get the same id. A page of
/// comments renders them through one `HTMLPage` instead, and puts ``stylesheet`` once in its `<head>` (or serves it
/// as a file):
///
///     var page = HTMLPage(fonts: fonts, options: HTMLOptions(fontSource: .url(prefix: "/fonts/")))
///     let fragments = comments.map { page.html(Paragraph(LocalizedKey($0)), widths: 320...720) }
///     let head = "<style>\(page.stylesheet)</style>"
///
/// Each fragment carries only its own rules: its width, its font size and line height, the families that draw its
/// text, and the faces that are its alone (subsets of an embedded font source, and faces that leave emoji to the
/// emoji family). The shared rules keep the specificity of an id (`:is(.class,#class)`), as a fragment's own do.
///
/// Ids: a caller's id is used as given; an id derived from the rendering (as ``HTMLOptions/id`` says) gets `-2`, `-3`,
/// … the second and later times the page renders the same text the same way, in the order of the calls.
public struct HTMLPage: Sendable {
  /// The fonts of every fragment (a paragraph's ``Paragraph/font(_:)`` changes its size and line height alone).
  private let fonts: FontSet
  /// How lines are measured and broken.
  private let engine: BrowserEngine
  /// How every fragment is written, but for its `id` and `language`.
  private let options: HTMLOptions
  /// How many times each derived id was given out.
  private var given: [String: Int] = [:]
  /// The paragraphs rendered, for the fonts they draw with.
  private var paragraphs: [Paragraph] = []

  /// A page of fragments measured in `fonts` as `engine` lays lines out, written with `options` (whose `id` and
  /// `language` are each fragment's, and whose `standalone` is ignored).
  public init(fonts: FontSet, engine: BrowserEngine = .any, options: HTMLOptions = HTMLOptions()) {
    var options = options
    (options.id, options.language, options.standalone) = (nil, nil, false)
    self.fonts = fonts
    self.engine = engine
    self.options = options
  }

  /// The CSS that every fragment of the page relies on, to be put once in the page (`<style>` or a linked file).
  ///
  /// It holds the faces of the fonts, each named by its URL (a browser loads one only when a fragment draws with
  /// it), the rules that pin layout and the colours a site may override; it is the same for every page of the same
  /// fonts and options. ``fontFiles(subsets:)`` gives the files it names that the page loads.
  public var stylesheet: String { HTMLRenderer(fonts: fonts, options: options).pageStylesheet() }

  /// A fragment of `paragraph` `width` CSS px wide, as ``Paragraph/html(width:fonts:engine:state:options:)`` writes
  /// it, but relying on ``stylesheet``; `id` and `language` are as in ``HTMLOptions``.
  public mutating func html(
    _ paragraph: Paragraph, width: Double, state: DisplayState = .collapsed, id: String? = nil,
    language: String? = nil
  ) -> RenderedHTML {
    paragraphs.append(paragraph)
    return paragraph.html(
      width: width, fonts: fonts, engine: engine, state: state, options: options(id: id, language: language),
      linksStylesheet: true
    ) { unique($0) }
  }

  /// A fragment of `paragraph` that fills its container between the bounds of `widths`, as
  /// ``Paragraph/html(widths:fonts:engine:state:options:)`` writes it, but relying on ``stylesheet``.
  public mutating func html(
    _ paragraph: Paragraph, widths: ClosedRange<Int>, state: DisplayState = .collapsed, id: String? = nil,
    language: String? = nil
  ) -> RenderedHTML {
    paragraphs.append(paragraph)
    return paragraph.html(
      widths: widths, fonts: fonts, engine: engine, state: state, options: options(id: id, language: language),
      linksStylesheet: true
    ) { unique($0) }
  }

  /// The font files that the page's fragments so far load, each named as ``stylesheet`` names it (after the URL
  /// prefix of ``HTMLOptions/FontSource/url(prefix:)``), for a static file server: the set's own faces and those of
  /// the fallback families that draw some of their text; by default each cut by HarfBuzz's subsetter to the
  /// characters that the page draws (the whole file when it cannot), or whole.
  ///
  ///     for file in page.fontFiles() { try file.data.write(to: fonts.appendingPathComponent(file.name)) }
  ///
  /// A subset serves this page only: a fragment added later may draw a character that it lacks.
  public func fontFiles(subsets: Bool = true) -> [(name: String, data: Data)] {
    HTMLRenderer(fonts: fonts, options: options).pageFontFiles(
      paragraphs.map { ($0.drawnText, $0.options.labels) }, subsets: subsets)
  }

  /// The page's options with a fragment's id and language.
  private func options(id: String?, language: String?) -> HTMLOptions {
    var options = self.options
    (options.id, options.language) = (id, language)
    return options
  }

  /// `id`, the first time; then `id-2`, `id-3`, and so on.
  private mutating func unique(_ id: String) -> String {
    let count = given[id, default: 0] + 1
    given[id] = count
    return count == 1 ? id : id + "-" + String(count)
  }
}
