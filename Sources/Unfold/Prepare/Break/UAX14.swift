/// The Unicode Line Breaking Algorithm (UAX #14) as published for Unicode 17.0, over code points.
///
/// ``breaks(_:)`` decides every position between two code points of a paragraph by the rules LB4–LB31,
/// in order, with the Line_Break, East_Asian_Width, General_Category and Extended_Pictographic properties
/// of Unicode 17.0 (``UnicodeProperties``). It passes every case of `LineBreakTest.txt` 17.0.
///
/// Combining marks follow LB9 and LB10: a mark (or ZWJ) after anything but a space or a hard break joins
/// the character before it, and the pair is treated as that character; any other mark is alphabetic. So the
/// rules run over "units", each a base code point and the marks it carries.
enum UAX14 {
  /// What may happen between two code points.
  enum Action: UInt8, Sendable {
    case prohibited, allowed, mandatory
  }

  /// One unit: a base code point and its attached marks, as the loop stores it (8 bytes: its properties are read
  /// through its first code point, by the few boundaries that the rules decide, ``Units``), a third of a unit
  /// that stores the properties and the code point too.
  fileprivate struct StoredUnit {
    /// The index of the base code point (a window holds fewer than 2³¹ code points: see ``BreakScanner``).
    var start: Int32
    /// The class after LB1 and LB10.
    var lineBreak: LineBreakClass
    /// The class after LB1 of the code point before the unit (a ZWJ there prohibits a break, LB8a).
    var classBefore: LineBreakClass
  }

  /// One unit as the rules read it: the stored unit and its base code point's properties.
  fileprivate struct Unit {
    /// The index of the base code point.
    var start: Int
    /// The class after LB1 and LB10.
    var lineBreak: LineBreakClass
    /// The class after LB1 of the code point before the unit (a ZWJ there prohibits a break, LB8a).
    var classBefore: LineBreakClass
    var properties: UnicodeProperties
    var scalar: Unicode.Scalar

    var isEastAsian: Bool { properties.isEastAsian }
    var isDottedCircle: Bool { scalar == "\u{25CC}" }
    var isInitialQuote: Bool { lineBreak == .qu && properties.generalCategory == .pi }
    var isFinalQuote: Bool { lineBreak == .qu && properties.generalCategory == .pf }
  }

  /// The units of a window, read as the rules read them.
  fileprivate struct Units {
    let stored: UnsafeBufferPointer<StoredUnit>
    let scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>

    var count: Int { stored.count }

    @inline(__always)
    subscript(_ index: Int) -> Unit {
      let unit = stored[index]
      let base = scalars[Int(unit.start)]
      return Unit(
        start: Int(unit.start), lineBreak: unit.lineBreak, classBefore: unit.classBefore,
        properties: UnicodeProperties(raw: base.properties), scalar: base.scalar)
    }
  }

  /// The action at each position between the code points of `scalars`: entry `i` decides the position
  /// before `scalars[i]`, for `i` in `1..<scalars.count` (entry 0 is `.prohibited`, LB2).
  ///
  /// The end of the text (LB3) is not included.
  static func breaks(_ scalars: some Collection<Unicode.Scalar>, usePairTable: Bool = true) -> [Action] {
    let scanned = scalars.map { BreakScanner.ScannedScalar(scalar: $0, properties: UnicodeProperties($0).raw) }
    var actions: [Action] = []
    var scratch = Scratch()
    scanned.withUnsafeBufferPointer { breaks($0, into: &actions, scratch: &scratch, usePairTable: usePairTable) }
    return actions
  }

  /// Storage that ``breaks(_:into:scratch:usePairTable:)`` reuses from one call to the next.
  struct Scratch {
    fileprivate var units: [StoredUnit] = []
    /// The units whose boundary before them the pair tables leave to the rules.
    fileprivate var deferred: [Int] = []

    /// Empty storage.
    init() {}

    /// Capacity for `count` code points, without placeholders (see ``BreakScanner``).
    mutating func reserve(_ count: Int) { units.reserveCapacity(count) }
  }

  /// The same, for code points whose packed properties are already looked up, into a reused array: its first
  /// `scalars.count` entries (it keeps its longest length; the entries after them are left as they were).
  ///
  /// `usePairTable: false` runs every rule at every boundary, a unit per code point and its marks: what tests
  /// compare the pair table and its runs of letters with.
  static func breaks(
    _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, into actions: inout [Action], scratch: inout Scratch,
    usePairTable: Bool = true
  ) {
    let count = scalars.count
    // The array keeps its longest length, entries past `count` stale, and its first `count` are set to prohibited
    // at once (emptied and appended as a repeated element, each went through a generic copy).
    if actions.count < count { actions.append(contentsOf: repeatElement(.prohibited, count: count - actions.count)) }
    actions.withUnsafeMutableBufferPointer {
      UnsafeMutableBufferPointer(rebasing: $0[..<count]).update(repeating: .prohibited)
    }
    guard count > 1 else { return }
    var units = scratch.units
    scratch.units = []  // the storage is moved out and back, so that writing does not copy it
    // The units are written through a buffer that keeps its longest length (placeholders written once, as the
    // scanner's): an append asks the runtime whether the storage is shared, at every code point.
    if units.count < count {
      let placeholder = StoredUnit(start: 0, lineBreak: .xx, classBefore: .xx)
      units.append(contentsOf: repeatElement(placeholder, count: count - units.count))
    }
    let pairs = PairTable.shared
    var deferred = scratch.deferred
    scratch.deferred = []
    deferred.removeAll(keepingCapacity: true)
    // Room for the boundaries a window leaves to the rules, made once rather than grown from none.
    if deferred.capacity < 64 { deferred.reserveCapacity(64) }
    // One loop makes the units and decides each boundary that the two units around it decide (most of them); the
    // boundaries that need more context than the units made so far are decided after it, in order, so that each
    // unit is read once. The actions are written through a buffer: through the `inout` array, every write would
    // ask the runtime whether its storage is shared.
    units.withUnsafeMutableBufferPointer { units in
      actions.withUnsafeMutableBufferPointer { actions in
        (usePairTable ? pairs.rows : PairTable.rulesOnly).withUnsafeBufferPointer { rows in
          makeUnits(scalars, into: units, actions: actions, deferred: &deferred, rows: rows, joinsLetters: usePairTable)
        }
      }
    }
    scratch.deferred = deferred
    scratch.units = units
  }

  /// The loop of ``breaks(_:into:scratch:usePairTable:)``, over buffers (the pair tables' too): a function of its
  /// own, its state in local variables rather than captured by the closures that hand it the buffers (which the
  /// compiler does not inline into the scanner's large loop, and whose captures are read from memory at every
  /// code point).
  private static func makeUnits(
    _ scalars: UnsafeBufferPointer<BreakScanner.ScannedScalar>, into buffer: UnsafeMutableBufferPointer<StoredUnit>,
    actions: UnsafeMutableBufferPointer<Action>, deferred: inout [Int], rows: UnsafeBufferPointer<UInt8>,
    joinsLetters: Bool
  ) {
    let count = scalars.count
    var unitCount = 0
    var classBefore = LineBreakClass.xx  // the class after LB1 of the code point before
    var previous = LineBreakClass.xx  // the class of the unit before
    // The row of ``PairTable/rows`` that decides the boundary before the next unit: the first unit's (no break),
    // then the row of the unit before, or after spaces the row of the last unit before them (`spaceRow`). Kept as
    // an offset, updated once per unit, which keeps the loop's values in registers.
    var row = PairTable.startRow
    var spaceRow = PairTable.entriesRow(.sp)  // spaces at the start: contextual, as the rules decide
    // The packed properties of the unit before when it is a letter that letters of the same properties join
    // (no value's bits are all ones otherwise).
    var joinable = UInt32.max
    for index in 0..<count {
      if scalars[index].properties == joinable, scalars[index].scalar != "\u{25CC}" {
        // A letter after a letter of the same properties (most letters of a word): a boundary that LB28
        // prohibits, and no rule reads more of a run of such letters than their class and properties, so the
        // run is one unit, as if the letter were a mark of the one before (the rules' context is the same).
        classBefore = .al
        continue
      }
      let properties = UnicodeProperties(raw: scalars[index].properties)
      let resolved = properties.resolvedLineBreak  // resolve(properties), from the tables
      let isMark = resolved == .cm || resolved == .zwj
      if isMark, unitCount > 0, !LineBreakSet.bkCrLfNlSpZw.contains(previous) {
        classBefore = resolved
        continue  // LB9: attached to the unit before; no break before it
      }
      let lineBreak: LineBreakClass = isMark ? .al : resolved  // LB10
      // U+25CC is an aksara to LB28a, which a unit's first code point alone decides.
      joinable =
        joinsLetters && resolved == .al && scalars[index].scalar != "\u{25CC}" ? properties.raw : UInt32.max
      buffer[unitCount] = StoredUnit(
        start: Int32(truncatingIfNeeded: index), lineBreak: lineBreak, classBefore: classBefore)
      let pair = rows[row | Int(lineBreak.rawValue)]
      if pair != PairTable.contextual, classBefore != .zwj {
        actions[index] = unsafeBitCast(pair, to: Action.self)  // a raw value of an action: the table holds no other
      } else {
        deferred.append(unitCount)
      }
      // After spaces, the rules that look past them (LB8, LB14–LB17) read the unit before them.
      if lineBreak == .sp {
        row = spaceRow
      } else {
        row = PairTable.entriesRow(lineBreak)
        spaceRow = PairTable.afterSpacesRow(lineBreak)
      }
      previous = lineBreak
      classBefore = resolved
      unitCount += 1
    }
    let units = Units(stored: UnsafeBufferPointer(rebasing: buffer[..<unitCount]), scalars: scalars)
    for u in deferred { actions[units[u].start] = decide(u, units) }
  }

  /// The decision for each pair of unit classes that no rule decides with more context than the two units:
  /// most pairs of prose (letter and letter, letter and space, full stop and space...), asked without
  /// running the rules.
  ///
  /// Pairs that some rule decides with more (the units before a space, around a quotation mark, a hyphen, a number's
  /// prefix or suffix, an opening or closing parenthesis beside a letter, regional indicators, emoji modifiers,
  /// aksaras; a ZWJ before the boundary) are `contextual` and go through the rules. The table is made by the rules
  /// themselves, on the two units alone.
  struct PairTable: Sendable {
    static let contextual: UInt8 = 0xFF
    /// Three tables in one array, each a row of 64 classes at an offset: the decision before a unit of class `b`
    /// after a unit of class `a`, at ``entriesRow(_:)`` of `a`, plus `b`; the decision before a unit of class `b`
    /// after spaces that follow a unit of class `c`, at ``afterSpacesRow(_:)`` of `c`, plus `b` (the rules that
    /// look back past spaces, LB8, LB14, LB16 and LB17, read `c`, and LB18 breaks after the spaces otherwise;
    /// contextual where a rule reads more: a quotation mark before the spaces, LB15a, one after them, LB15b, or
    /// what follows the unit after them, LB15c: SP ÷ IS NU); and the row of the first unit of a text, at
    /// ``startRow`` (no break before it, LB2).
    let rows: [UInt8]
    /// The same rows with every boundary but the first unit's left to the rules (`usePairTable: false`).
    static let rulesOnly: [UInt8] =
      [UInt8](repeating: contextual, count: startRow) + [UInt8](repeating: Action.prohibited.rawValue, count: 64)

    /// The offset in ``rows`` of the decisions after a unit of class `a`.
    @inline(__always)
    static func entriesRow(_ a: LineBreakClass) -> Int { Int(a.rawValue) << 6 }
    /// The offset in ``rows`` of the decisions after spaces after a unit of class `c`.
    @inline(__always)
    static func afterSpacesRow(_ c: LineBreakClass) -> Int { 64 * 64 | Int(c.rawValue) << 6 }
    /// The offset in ``rows`` of the decisions before the first unit.
    static var startRow: Int { 2 * 64 * 64 }

    static let shared = PairTable()

    private init() {
      var entries = [UInt8](repeating: Self.contextual, count: 64 * 64)
      var afterSpaces = [UInt8](repeating: Self.contextual, count: 64 * 64)
      let classes = LineBreakClass.allCases.filter { ![.cm, .zwj, .ai, .sg, .xx, .sa, .cj].contains($0) }
      // The units of a pair (or of a class, a space and a class) are written into one buffer on the stack, not an
      // array made per pair.
      // (The code points of the units: "a", with no properties, which no pair decided here reads.)
      let letters = [BreakScanner.ScannedScalar](repeating: .init(scalar: "a", properties: 0), count: 3)
      withUnsafeTemporaryAllocation(of: StoredUnit.self, capacity: 3) { buffer in
        letters.withUnsafeBufferPointer { letters in
          let base = buffer.baseAddress.unsafelyUnwrapped
          func set(_ index: Int, _ lineBreak: LineBreakClass, after before: LineBreakClass) {
            (base + index).initialize(
              to: StoredUnit(start: Int32(index), lineBreak: lineBreak, classBefore: before))
          }
          func units(_ count: Int) -> Units {
            Units(stored: UnsafeBufferPointer(start: base, count: count), scalars: letters)
          }
          for a in classes {
            set(0, a, after: .xx)
            for b in classes where !Self.isContextual(a, b) {
              set(1, b, after: a)
              entries[Int(a.rawValue) << 6 | Int(b.rawValue)] = decide(1, units(2)).rawValue
            }
          }
          for c in classes where c != .sp && !Self.isContextualAfterSpaces(c, .sp) {
            set(0, c, after: .xx)
            set(1, .sp, after: c)
            for b in classes where !Self.isContextualAfterSpaces(c, b) {
              set(2, b, after: .sp)
              afterSpaces[Int(c.rawValue) << 6 | Int(b.rawValue)] = decide(2, units(3)).rawValue
            }
          }
        }
      }
      rows = entries + afterSpaces + [UInt8](repeating: Action.prohibited.rawValue, count: 64)
    }

    /// Whether a rule may decide the boundary before `b`, after spaces after `c`, with more than the two.
    static func isContextualAfterSpaces(_ c: LineBreakClass, _ b: LineBreakClass) -> Bool {
      switch c {
      case .qu: return true  // LB15a
      default: break
      }
      switch b {
      case .qu, .is, .cm, .zwj: return true  // LB15b, LB15c (SP ÷ IS NU), LB9
      default: return false
      }
    }

    /// Whether some rule may decide the boundary between units of these classes with more context: the
    /// rules that look before `a` (past spaces, over a number, through regional indicators), after `b`,
    /// or at a property other than the class.
    ///
    /// A prefix or suffix (PR, PO) is contextual only where LB25 reads past the pair: before an opening
    /// punctuation (`(PO | PR) × OP NU`, `OP IS NU`: the units after it), and after a separator or a closing
    /// punctuation (`NU (SY | IS)* (CL | CP)? × (PO | PR)`: the units before it). With any other unit the pair
    /// decides alone (`$1`, `2%`, `% `).
    static func isContextual(_ a: LineBreakClass, _ b: LineBreakClass) -> Bool {
      switch a {
      case .sp, .qu, .hy, .hh, .ri, .ak, .as, .ap, .vi: return true  // LB8–17, 19, 20a, 21a, 28a, 30a
      case .po, .pr: if b == .op { return true }  // LB25
      default: break
      }
      switch b {
      case .qu, .ri, .em, .ak, .as, .vf, .vi: return true  // LB15b, 19, 30a, 30b, 28a
      case .po, .pr: if [.sy, .is, .cl, .cp].contains(a) { return true }  // LB25
      default: break
      }
      if (a == .sy || a == .is) && b == .nu { return true }  // LB25: NU (SY | IS)* × NU
      if b == .op && LineBreakSet.alHlNu.contains(a) { return true }  // LB30: East Asian width
      if a == .cp && LineBreakSet.alHlNu.contains(b) { return true }
      return false
    }
  }

  /// LB1: AI, SG, XX → AL; SA → CM for marks, else AL; CJ → NS.
  static func resolve(_ properties: UnicodeProperties) -> LineBreakClass {
    switch properties.lineBreak {
    case .ai, .sg, .xx: return .al
    case .sa:
      switch properties.generalCategory {
      case .mn, .mc: return .cm
      default: return .al
      }
    case .cj: return .ns
    case let other: return other
    }
  }

  /// The action at the boundary before unit `u`: the rules in order, numbered as in UAX #14 revision 55.
  private static func decide(_ u: Int, _ units: Units) -> Action {
    let lastRawClass = units[u].classBefore
    let a = units[u - 1]
    let b = units[u]
    let before = u >= 2 ? units[u - 2] : nil
    let after = u + 1 < units.count ? units[u + 1] : nil
    let afterNext = u + 2 < units.count ? units[u + 2] : nil
    /// The last unit before the boundary that is not a space, and the one before it.
    func skippingSpaces() -> (unit: Unit?, index: Int) {
      var i = u - 1
      while i >= 0 && units[i].lineBreak == .sp { i -= 1 }
      return (i >= 0 ? units[i] : nil, i)
    }

    // LB4, LB5: hard breaks.
    if a.lineBreak == .bk { return .mandatory }
    if a.lineBreak == .cr && b.lineBreak == .lf { return .prohibited }
    if LineBreakSet.crLfNl.contains(a.lineBreak) { return .mandatory }
    // LB6, LB7
    if LineBreakSet.bkCrLfNl.contains(b.lineBreak) { return .prohibited }
    if b.lineBreak == .sp || b.lineBreak == .zw { return .prohibited }
    // LB8: ZW SP* ÷
    if skippingSpaces().unit?.lineBreak == .zw { return .allowed }
    // LB8a: ZWJ ×
    if lastRawClass == .zwj { return .prohibited }
    // LB11
    if a.lineBreak == .wj || b.lineBreak == .wj { return .prohibited }
    // LB12, LB12a
    if a.lineBreak == .gl { return .prohibited }
    if b.lineBreak == .gl && !LineBreakSet.spBaHyHh.contains(a.lineBreak) { return .prohibited }
    // LB13
    if LineBreakSet.clCpExSy.contains(b.lineBreak) { return .prohibited }
    // LB14: OP SP* ×
    let (beforeSpaces, beforeSpacesIndex) = skippingSpaces()
    if beforeSpaces?.lineBreak == .op { return .prohibited }
    // LB15a: (sot | BK | CR | LF | NL | OP | QU | GL | SP | ZW) [QU & Pi] SP* ×
    if let quote = beforeSpaces, quote.isInitialQuote {
      let context = beforeSpacesIndex >= 1 ? units[beforeSpacesIndex - 1].lineBreak : nil
      if context == nil || LineBreakSet.bkCrLfNlOpQuGlSpZw.contains(context!) { return .prohibited }
    }
    // LB15b: × [QU & Pf] (SP | GL | WJ | CL | QU | CP | EX | IS | SY | BK | CR | LF | NL | ZW | eot)
    if b.isFinalQuote {
      if let next = after?.lineBreak {
        if LineBreakSet.spGlWjClQuCpExIsSyBkCrLfNlZw.contains(next) { return .prohibited }
      } else {
        return .prohibited
      }
    }
    // LB15c: SP ÷ IS NU; LB15d: × IS
    if a.lineBreak == .sp && b.lineBreak == .is && after?.lineBreak == .nu { return .allowed }
    if b.lineBreak == .is { return .prohibited }
    // LB16: (CL | CP) SP* × NS
    if b.lineBreak == .ns, let last = beforeSpaces?.lineBreak, last == .cl || last == .cp { return .prohibited }
    // LB17: B2 SP* × B2
    if b.lineBreak == .b2 && beforeSpaces?.lineBreak == .b2 { return .prohibited }
    // LB18
    if a.lineBreak == .sp { return .allowed }
    // LB19: × [QU - Pi]; [QU - Pf] ×
    if b.lineBreak == .qu && b.properties.generalCategory != .pi { return .prohibited }
    if a.lineBreak == .qu && a.properties.generalCategory != .pf { return .prohibited }
    // LB19a
    if b.lineBreak == .qu {
      if !a.isEastAsian { return .prohibited }
      if after == nil || !after!.isEastAsian { return .prohibited }
    }
    if a.lineBreak == .qu {
      if !b.isEastAsian { return .prohibited }
      if before == nil || !before!.isEastAsian { return .prohibited }
    }
    // LB20
    if a.lineBreak == .cb || b.lineBreak == .cb { return .allowed }
    // LB20a: (sot | BK | CR | LF | NL | SP | ZW | CB | GL) (HY | HH) × (AL | HL)
    if a.lineBreak == .hy || a.lineBreak == .hh, b.lineBreak == .al || b.lineBreak == .hl {
      if before == nil || LineBreakSet.bkCrLfNlSpZwCbGl.contains(before!.lineBreak) { return .prohibited }
    }
    // LB21
    if LineBreakSet.baHhHyNs.contains(b.lineBreak) || a.lineBreak == .bb { return .prohibited }
    // LB21a: HL (HY | HH) × [^HL]
    if a.lineBreak == .hy || a.lineBreak == .hh, before?.lineBreak == .hl, b.lineBreak != .hl { return .prohibited }
    // LB21b
    if a.lineBreak == .sy && b.lineBreak == .hl { return .prohibited }
    // LB22
    if b.lineBreak == .in { return .prohibited }
    // LB23
    if (a.lineBreak == .al || a.lineBreak == .hl) && b.lineBreak == .nu { return .prohibited }
    if a.lineBreak == .nu && (b.lineBreak == .al || b.lineBreak == .hl) { return .prohibited }
    // LB23a
    if a.lineBreak == .pr && LineBreakSet.idEbEm.contains(b.lineBreak) { return .prohibited }
    if LineBreakSet.idEbEm.contains(a.lineBreak) && b.lineBreak == .po { return .prohibited }
    // LB24
    if (a.lineBreak == .pr || a.lineBreak == .po) && (b.lineBreak == .al || b.lineBreak == .hl) { return .prohibited }
    if (a.lineBreak == .al || a.lineBreak == .hl) && (b.lineBreak == .pr || b.lineBreak == .po) { return .prohibited }
    // LB25
    if isNumberRule(u, units, after: after, afterNext: afterNext) { return .prohibited }
    // LB26
    if a.lineBreak == .jl && LineBreakSet.jlJvH2H3.contains(b.lineBreak) { return .prohibited }
    if (a.lineBreak == .jv || a.lineBreak == .h2) && (b.lineBreak == .jv || b.lineBreak == .jt) { return .prohibited }
    if (a.lineBreak == .jt || a.lineBreak == .h3) && b.lineBreak == .jt { return .prohibited }
    // LB27
    if LineBreakSet.jlJvJtH2H3.contains(a.lineBreak) && b.lineBreak == .po { return .prohibited }
    if a.lineBreak == .pr && LineBreakSet.jlJvJtH2H3.contains(b.lineBreak) { return .prohibited }
    // LB28
    if (a.lineBreak == .al || a.lineBreak == .hl) && (b.lineBreak == .al || b.lineBreak == .hl) { return .prohibited }
    // LB28a
    func isAksara(_ unit: Unit?) -> Bool {
      guard let unit else { return false }
      return unit.lineBreak == .ak || unit.isDottedCircle || unit.lineBreak == .as
    }
    func isAksaraStart(_ unit: Unit?) -> Bool {
      guard let unit else { return false }
      return unit.lineBreak == .ak || unit.isDottedCircle
    }
    if a.lineBreak == .ap && isAksara(b) { return .prohibited }
    if isAksara(a) && (b.lineBreak == .vf || b.lineBreak == .vi) { return .prohibited }
    if a.lineBreak == .vi && isAksara(before) && isAksaraStart(b) { return .prohibited }
    if isAksara(a) && isAksara(b) && after?.lineBreak == .vf { return .prohibited }
    // LB29
    if a.lineBreak == .is && (b.lineBreak == .al || b.lineBreak == .hl) { return .prohibited }
    // LB30
    if LineBreakSet.alHlNu.contains(a.lineBreak) && b.lineBreak == .op && !b.isEastAsian { return .prohibited }
    if a.lineBreak == .cp && !a.isEastAsian && LineBreakSet.alHlNu.contains(b.lineBreak) { return .prohibited }
    // LB30a: an odd number of regional indicators before the boundary
    if a.lineBreak == .ri && b.lineBreak == .ri {
      var count = 0
      var i = u - 1
      while i >= 0 && units[i].lineBreak == .ri {
        count += 1
        i -= 1
      }
      if count % 2 == 1 { return .prohibited }
    }
    // LB30b
    if b.lineBreak == .em {
      if a.lineBreak == .eb { return .prohibited }
      if a.properties.isExtendedPictographic && a.properties.generalCategory == .cn { return .prohibited }
    }
    // LB31
    return .allowed
  }

  /// LB25, the rules for numbers with their prefixes, suffixes and separators.
  private static func isNumberRule(_ u: Int, _ units: Units, after: Unit?, afterNext: Unit?) -> Bool {
    let a = units[u - 1].lineBreak
    let b = units[u].lineBreak
    /// Whether a NU stands before index `i`, past any SY and IS.
    func numberEndsAt(_ i: Int) -> Bool {
      var j = i
      while j >= 0 && (units[j].lineBreak == .sy || units[j].lineBreak == .is) { j -= 1 }
      return j >= 0 && units[j].lineBreak == .nu
    }
    // NU (SY | IS)* (CL | CP) × (PO | PR)
    if (a == .cl || a == .cp) && (b == .po || b == .pr) && numberEndsAt(u - 2) { return true }
    // NU (SY | IS)* × (PO | PR)
    if (b == .po || b == .pr) && numberEndsAt(u - 1) { return true }
    // (PO | PR) × OP NU; (PO | PR) × OP IS NU
    if (a == .po || a == .pr) && b == .op {
      if after?.lineBreak == .nu { return true }
      if after?.lineBreak == .is && afterNext?.lineBreak == .nu { return true }
    }
    // (PO | PR) × NU; HY × NU; IS × NU
    if b == .nu && LineBreakSet.poPrHyIs.contains(a) { return true }
    // NU (SY | IS)* × NU
    if b == .nu && numberEndsAt(u - 1) { return true }
    return false
  }
}

/// A set of line break classes as one bit mask: the rules test membership without allocating.
///
/// The sets the rules use are computed properties that fold to constants: a stored `static let` is initialized
/// lazily, and asking for one goes through `swift_once` at every rule of every position.
struct LineBreakSet: Sendable {
  let bits: UInt64

  @inline(__always)
  init(bits: UInt64) { self.bits = bits }

  @inline(__always)
  func contains(_ lineBreak: LineBreakClass) -> Bool { bits & Self.bit(lineBreak) != 0 }

  @inline(__always)
  private static func bit(_ lineBreak: LineBreakClass) -> UInt64 { 1 << UInt64(lineBreak.rawValue) }

  static var alHlNu: LineBreakSet { LineBreakSet(bits: bit(.al) | bit(.hl) | bit(.nu)) }
  static var baHhHyNs: LineBreakSet { LineBreakSet(bits: bit(.ba) | bit(.hh) | bit(.hy) | bit(.ns)) }
  static var bkCrLfNl: LineBreakSet { LineBreakSet(bits: bit(.bk) | bit(.cr) | bit(.lf) | bit(.nl)) }
  static var bkCrLfNlOpQuGlSpZw: LineBreakSet {
    LineBreakSet(bits: bit(.bk) | bit(.cr) | bit(.lf) | bit(.nl) | bit(.op) | bit(.qu) | bit(.gl) | bit(.sp) | bit(.zw))
  }
  static var bkCrLfNlSpZw: LineBreakSet {
    LineBreakSet(bits: bit(.bk) | bit(.cr) | bit(.lf) | bit(.nl) | bit(.sp) | bit(.zw))
  }
  static var bkCrLfNlSpZwCbGl: LineBreakSet {
    LineBreakSet(bits: bit(.bk) | bit(.cr) | bit(.lf) | bit(.nl) | bit(.sp) | bit(.zw) | bit(.cb) | bit(.gl))
  }
  static var clCpExSy: LineBreakSet { LineBreakSet(bits: bit(.cl) | bit(.cp) | bit(.ex) | bit(.sy)) }
  static var crLfNl: LineBreakSet { LineBreakSet(bits: bit(.cr) | bit(.lf) | bit(.nl)) }
  static var idEbEm: LineBreakSet { LineBreakSet(bits: bit(.id) | bit(.eb) | bit(.em)) }
  static var jlJvH2H3: LineBreakSet { LineBreakSet(bits: bit(.jl) | bit(.jv) | bit(.h2) | bit(.h3)) }
  static var jlJvJtH2H3: LineBreakSet { LineBreakSet(bits: bit(.jl) | bit(.jv) | bit(.jt) | bit(.h2) | bit(.h3)) }
  static var poPrHyIs: LineBreakSet { LineBreakSet(bits: bit(.po) | bit(.pr) | bit(.hy) | bit(.is)) }
  static var spBaHyHh: LineBreakSet { LineBreakSet(bits: bit(.sp) | bit(.ba) | bit(.hy) | bit(.hh)) }
  static var spGlWjClQuCpExIsSyBkCrLfNlZw: LineBreakSet {
    LineBreakSet(
      bits: bit(.sp) | bit(.gl) | bit(.wj) | bit(.cl) | bit(.qu) | bit(.cp) | bit(.ex) | bit(.is) | bit(.sy) | bit(.bk)
        | bit(.cr) | bit(.lf) | bit(.nl) | bit(.zw))
  }
}
