/// The style at increasing UTF-8 offsets of a styled text, the run found once and kept while offsets stay in
/// it (rather than looked up in the text at each cluster).
struct RunCursor {
  private let runs: [StyledText.Run]
  private let runEnds: [Int]
  private var runIndex: Int
  private var runEnd: Int

  /// The index of the run of the last offset asked.
  var index: Int { runIndex }
  private var style: Style

  /// A cursor at `offset`.
  init(_ text: StyledText, at offset: Int) {
    runs = text.runs
    runEnds = text.runEnds
    runIndex = text.runIndex(containing: offset)
    runEnd = runEnds.isEmpty ? 0 : runEnds[runIndex]
    style = runs.isEmpty ? .plain : runs[runIndex].style
  }

  /// The style of the run that holds `offset`, at or after the offsets asked before.
  @inline(__always)
  mutating func style(at offset: Int) -> Style {
    if offset >= runEnd {
      while offset >= runEnd && runIndex + 1 < runs.count {
        runIndex += 1
        runEnd = runEnds[runIndex]
      }
      style = runs.isEmpty ? .plain : runs[runIndex].style
    }
    return style
  }
}

extension StyledText {
  /// The style of the hyphen shown for the soft hyphen that ends at the UTF-8 offset `end`: the traits of its run,
  /// with no link.
  func hyphenStyle(before end: Int) -> Style {
    Style(style(ofRun: runIndex(containing: max(0, end - 1))).traits)
  }

  /// The style of run `index` (plain for a text without runs, the empty one).
  func style(ofRun index: Int) -> Style { runs.isEmpty ? .plain : runs[index].style }

  /// The index of the run that holds the UTF-8 offset (the last run for the end offset).
  ///
  /// A binary search whose steps choose without a branch: asked at the start of every line drawn, a search's
  /// branches are mispredicted about half the time.
  func runIndex(containing offset: Int) -> Int {
    runEnds.withUnsafeBufferPointer { ends in
      guard ends.count > 1 else { return 0 }
      // `base` ends as the last index whose end is at most the offset, or 0; the run after it holds the offset.
      var base = 0
      var count = ends.count
      while count > 1 {
        let half = count / 2
        base = ends[base &+ half] <= offset ? base &+ half : base
        count &-= half
      }
      return min(base &+ (ends[base] <= offset ? 1 : 0), ends.count &- 1)
    }
  }

  /// ``runIndex(containing:)``, looked for from run `hint` on when the offset is at or after that run's start:
  /// lines drawn in order start a step or two of runs after the line before, which a search from the start
  /// would wait on the loads to find.
  func runIndex(containing offset: Int, from hint: Int) -> Int {
    runEnds.withUnsafeBufferPointer { ends in
      guard hint >= 0, hint < ends.count, hint == 0 || ends[hint &- 1] <= offset else {
        return runIndex(containing: offset)
      }
      var run = hint
      for _ in 0..<8 {
        guard run < ends.count &- 1, ends[run] <= offset else { return run }
        run &+= 1
      }
      return runIndex(containing: offset)
    }
  }
}
