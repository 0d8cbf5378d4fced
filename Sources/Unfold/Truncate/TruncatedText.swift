/// Whether a paragraph is shown collapsed to its line limit or expanded in full.
public enum DisplayState: String, Hashable, Sendable, CaseIterable {
  /// At most the line limit of lines, the last ending with the ellipsis and the more label when cut.
  case collapsed
  /// Every line, and the less label when one is set and the text needed truncating.
  case expanded
}

/// A piece of a display line with one style and one role.
public struct Fragment: Hashable, Sendable {
  /// What a fragment is.
  public enum Role: String, Hashable, Sendable {
    /// Text of the paragraph.
    case text
    /// The ellipsis at a cut.
    case ellipsis
    /// The hyphen drawn where a line breaks after a soft hyphen.
    case hyphen
    /// The space between the ellipsis or the text and a label.
    case gap
    /// The toggle that expands the paragraph.
    case moreLabel
    /// The toggle that collapses it again.
    case lessLabel
    /// What a document draws around its blocks' text: a list's bullet or number, a task's box, a quote's bar, an
    /// indent, a heading's `#` marks, the gutter of code, a table's borders, a thematic break.
    case marker
  }

  /// The characters, as in the source: renderers make control characters visible and expand tabs (a tab is
  /// always a fragment of its own, its ``width`` the distance to the next tab stop).
  public var text: String
  /// The style of the text; labels and the ellipsis are plain.
  public var style: Style
  /// The width in the measurer's unit.
  public var width: Int
  /// What the fragment is.
  public var role: Role

  /// Creates a fragment.
  package init(text: String, style: Style = .plain, width: Int, role: Role = .text) {
    self.text = text
    self.style = style
    self.width = width
    self.role = role
  }

  /// Whether the fragment is a label that toggles the paragraph.
  package var isToggle: Bool { role == .moreLabel || role == .lessLabel }
}

/// One line as it is drawn.
public struct DisplayLine: Hashable, Sendable {
  /// The fragments, in order.
  public var fragments: [Fragment]
  /// The base direction of the line's paragraph when it is not the text's: a document's block's, found from its first
  /// strong character as `dir="auto"` finds it; `nil` for the text's direction.
  package var direction: TextDirection?
  /// The UTF-8 offset in the paragraph's text where the line's text fragments start (``ParagraphLevels``), or nil
  /// when they do not stand together in it; not part of the line's identity.
  package var textStart: Int? {
    get { start.value }
    set { start.value = newValue }
  }
  private var start = Unidentified<Int?>(nil)

  /// Creates a line.
  package init(fragments: [Fragment], direction: TextDirection? = nil) {
    (self.fragments, self.direction) = (fragments, direction)
  }

  /// The width of the line: the sum of its fragments.
  public var width: Int { fragments.reduce(0) { $0 + $1.width } }
  /// The text of the line, labels included.
  public var text: String { fragments.map(\.text).joined() }
}

/// What a reader sees: the lines of a paragraph in one state, and whether truncation happened.
public struct TruncatedText: Hashable, Sendable {
  /// The lines shown.
  public var lines: [DisplayLine]
  /// Whether the text needs more lines than the line limit (so a toggle is drawn).
  public var isTruncated: Bool
  /// The number of lines of the expanded text, labels excluded; `nil` when the layout stopped early at the
  /// line limit and did not count the rest.
  public var lineCount: Int?
  /// The state shown.
  public var state: DisplayState
  /// The width the lines were laid out for.
  public var width: Int
  /// The unit of widths (see ``TextMeasurer/unit``).
  public var unit: WidthUnit
  /// The text's bidi levels, which its lines are drawn by (``DisplayLine/textStart``), when it holds right-to-left
  /// text; not part of the truncation's identity.
  var paragraphLevels: ParagraphLevels? {
    get { levels.value }
    set { levels.value = newValue }
  }
  private var levels = Unidentified<ParagraphLevels?>(nil)
  /// Where the text was cut.
  public var mode: TruncationMode = .tail
  /// Where the toggle is drawn.
  public var toggle: TogglePlacement = .inline
  /// The UTF-8 ranges of shown text whose width the target chooses (characters with no glyph in the font):
  /// there the target's lines may differ from these.
  package var unpredictableRanges: [Range<Int>] = []
  /// The values out of range that were clamped (``Diagnostic/Kind/valueOutOfRange``): a line limit below 1, a
  /// width below 1.
  public var diagnostics: [Diagnostic] = []

  /// Creates a truncated text (the `Truncator` makes them; this is for callers that draw lines of their
  /// own, such as a scrolling viewport).
  package init(
    lines: [DisplayLine], isTruncated: Bool, lineCount: Int?, state: DisplayState, width: Int, unit: WidthUnit,
    mode: TruncationMode = .tail, toggle: TogglePlacement = .inline, unpredictableRanges: [Range<Int>] = [],
    diagnostics: [Diagnostic] = []
  ) {
    self.lines = lines
    self.isTruncated = isTruncated
    self.lineCount = lineCount
    self.state = state
    self.width = width
    self.unit = unit
    self.mode = mode
    self.toggle = toggle
    self.unpredictableRanges = unpredictableRanges
    self.diagnostics = diagnostics
  }
}

/// A value that equality and hashing leave out: what follows from the rest of the value that holds it.
struct Unidentified<Value: Sendable>: Hashable, Sendable {
  var value: Value

  init(_ value: Value) { self.value = value }

  static func == (_: Self, _: Self) -> Bool { true }
  func hash(into hasher: inout Hasher) {}
}
