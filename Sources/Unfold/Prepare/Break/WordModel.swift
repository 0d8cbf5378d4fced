import Foundation

/// One of the LSTM word models with which Gecko breaks lines inside a run of Line_Break SA (ICU4X's
/// `LineSegmenter::new_auto`, whose compiled data `Unicode/WordModels.swift` holds): a bidirectional LSTM over
/// the run's code points, each looked up in the model's dictionary of characters, that classifies every code
/// point as the beginning, inside, end or whole of a word (BIES); a word ends after each code point it calls an
/// end.
///
/// The arithmetic is ICU4X's, in `Float`: the four gates in the order input, forget, cell, output; a state of
/// zeros at each end of the run; an end where the end's score is greater than each other score (argmax without
/// the softmax, which keeps the order).
struct WordModel: Sendable {
  /// The index of each character in the embedding (the dictionary's order); others take the last row.
  private let index: [UInt32: Int]
  private let hidden: Int
  private let forward: Direction
  private let backward: Direction
  private let timeWeights: [Float]
  private let timeBias: [Float]

  /// The weights of one direction of the LSTM.
  private struct Direction: Sendable {
    /// For each dictionary index, the gates' bias plus the input weights times the index's embedding (4H each):
    /// what a step adds before the recurrent part, computed once per character of the dictionary rather than once
    /// per code point of the text (the sums in ICU4X's order: bias, then input, then recurrent).
    let projected: [Float]
    /// U (4, H, H).
    let recurrent: [Float]

    init(embedding: [Float], rows: Int, embeddingSize e: Int, input: [Float], recurrent: [Float], bias: [Float]) {
      let gates = bias.count
      var projected = [Float](repeating: 0, count: rows * gates)
      for id in 0..<rows {
        for row in 0..<gates {
          let sum = embedding.withUnsafeBufferPointer { x in
            input.withUnsafeBufferPointer { w in WordModel.dot(x.baseAddress! + id * e, w.baseAddress! + row * e, e) }
          }
          projected[id * gates + row] = bias[row] + sum
        }
      }
      self.projected = projected
      self.recurrent = recurrent
    }
  }

  /// A model from its dictionary (one character each, in order), its sizes and its weights (little-endian
  /// 32-bit floats, base64).
  init(characters: String, hiddenUnits: Int, embeddingSize: Int, weightsBase64: String) {
    var index: [UInt32: Int] = [:]
    for (i, scalar) in characters.unicodeScalars.enumerated() { index[scalar.value] = i }
    guard let data = Data(base64Encoded: weightsBase64) else { preconditionFailure("corrupt generated model") }
    let floats = data.withUnsafeBytes { bytes in
      (0..<data.count / 4).map {
        Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
      }
    }
    let (h, e, rows) = (hiddenUnits, embeddingSize, index.count + 1)
    let sizes = [rows * e, 4 * h * e, 4 * h * h, 4 * h, 4 * h * e, 4 * h * h, 4 * h, 2 * 4 * h, 4]
    precondition(sizes.reduce(0, +) == floats.count, "corrupt generated model")
    var parts: [[Float]] = []
    var start = 0
    for size in sizes {
      parts.append(Array(floats[start..<start + size]))
      start += size
    }
    self.index = index
    self.hidden = h
    self.forward = Direction(
      embedding: parts[0], rows: rows, embeddingSize: e, input: parts[1], recurrent: parts[2], bias: parts[3])
    self.backward = Direction(
      embedding: parts[0], rows: rows, embeddingSize: e, input: parts[4], recurrent: parts[5], bias: parts[6])
    self.timeWeights = parts[7]
    self.timeBias = parts[8]
  }

  /// The model for a code point: ICU4X's intersections of Line_Break SA with the Thai, Lao, Myanmar and Khmer
  /// scripts; `nil` for other SA characters (Tai Tham, Tai Le and the rest), whose runs ICU4X leaves whole.
  static func model(for scalar: Unicode.Scalar) -> Script? {
    switch scalar.value {
    case 0x0E01...0x0E3A, 0x0E40...0x0E4E: .thai
    case 0x0E81, 0x0E82, 0x0E84, 0x0E86...0x0E8A, 0x0E8C..<0x0EA3, 0x0EA5, 0x0EA7...0x0EBD, 0x0EC0...0x0EC4,
      0x0EC6, 0x0EC8...0x0ECE, 0x0EDC...0x0EDF:
      .lao
    case 0x1000...0x103F, 0x1050...0x108F, 0x109A...0x109F, 0xA9E0...0xA9EF, 0xA9FA...0xA9FE, 0xAA60...0xAA7F:
      .burmese
    case 0x1780...0x17D3, 0x17D7, 0x17DC, 0x17DD: .khmer
    default: nil
    }
  }

  /// The scripts with a model.
  enum Script: Sendable {
    case thai, lao, burmese, khmer

    /// The script's model, decoded at first use.
    var model: WordModel {
      switch self {
      case .thai: WordModel.thai
      case .lao: WordModel.lao
      case .burmese: WordModel.burmese
      case .khmer: WordModel.khmer
      }
    }
  }

  /// What the model calls a code point: the beginning, inside, end or whole of a word (ICU4X's BIES).
  enum Label: Character, Sendable {
    case begin = "b", inside = "i", end = "e", single = "s"
  }

  /// The indexes into `scalars` (code points of one script) after which a word ends, in order: after each code
  /// point labelled an end, and at `scalars.count` (a single, like a beginning, ends no word, as in ICU4X).
  func wordEnds(in scalars: some Collection<Unicode.Scalar>) -> [Int] {
    let labels = labels(of: scalars)
    var ends: [Int] = []
    for (i, label) in labels.enumerated() where label == .end && i < labels.count - 1 { ends.append(i + 1) }
    if !labels.isEmpty { ends.append(labels.count) }
    return ends
  }

  /// The label of each code point of `scalars` (one script's code points).
  func labels(of scalars: some Collection<Unicode.Scalar>) -> [Label] {
    let ids = scalars.map { index[$0.value] ?? index.count }
    let count = ids.count
    guard count > 0 else { return [] }
    let h = hidden
    // One allocation for the run: the backward pass's state at each code point (for the forward pass to meet),
    // then the state, the cell and the gates of the pass under way. The weights are read through raw pointers:
    // an array's accessors in the inner loops cost more than the arithmetic.
    let scratch = UnsafeMutablePointer<Float>.allocate(capacity: count * h + 6 * h)
    defer { scratch.deallocate() }
    scratch.initialize(repeating: 0, count: count * h + 6 * h)
    let (backwardStates, state, cell, gates) = (
      scratch, scratch + count * h, scratch + count * h + h, scratch + count * h + 2 * h
    )
    return backward.projected.withUnsafeBufferPointer { backwardProjected in
      backward.recurrent.withUnsafeBufferPointer { backwardRecurrent in
        forward.projected.withUnsafeBufferPointer { forwardProjected in
          forward.recurrent.withUnsafeBufferPointer { forwardRecurrent in
            timeWeights.withUnsafeBufferPointer { weights in
              for i in stride(from: count - 1, through: 0, by: -1) {
                Self.step(
                  ids[i], h, backwardProjected.baseAddress!, backwardRecurrent.baseAddress!, state: state, cell: cell,
                  gates: gates)
                (backwardStates + i * h).update(from: state, count: h)
              }
              state.update(repeating: 0, count: h)
              cell.update(repeating: 0, count: h)
              var labels: [Label] = []
              labels.reserveCapacity(count)
              let w = weights.baseAddress!
              for i in 0..<count {
                Self.step(
                  ids[i], h, forwardProjected.baseAddress!, forwardRecurrent.baseAddress!, state: state, cell: cell,
                  gates: gates)
                // The scores of B, I, E and S: the forward state's part, the backward state's, the bias (ICU4X's
                // order).
                let stateBackward = backwardStates + i * h
                @inline(__always) func score(_ j: Int) -> Float {
                  Self.dot(state, w + j * h, h) + Self.dot(stateBackward, w + (4 + j) * h, h) + timeBias[j]
                }
                let scores = (score(0), score(1), score(2), score(3))
                // ICU4X's argmax: the first of the greatest scores.
                var (label, best) = (Label.begin, scores.0)
                if scores.1 > best { (label, best) = (.inside, scores.1) }
                if scores.2 > best { (label, best) = (.end, scores.2) }
                if scores.3 > best { (label, best) = (.single, scores.3) }
                labels.append(label)
              }
              return labels
            }
          }
        }
      }
    }
  }

  /// The dot product of `n` floats in ICU4X's order (`unrolled_dot_1`): the tail past the last whole eight summed
  /// first, from zero; eight running sums over the whole eights, one per lane; then the tail plus the lanes'
  /// sums paired 0+4, 1+5, 2+6, 3+7, left to right.
  ///
  /// No fused multiply-add: each product is rounded.
  @inline(__always)
  static func dot(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ n: Int) -> Float {
    let whole = n & ~7
    var sum: Float = 0
    for k in whole..<n { sum += x[k] * y[k] }
    var lanes = SIMD8<Float>()
    var k = 0
    while k < whole {
      let xs = UnsafeRawPointer(x + k).loadUnaligned(as: SIMD8<Float>.self)
      let ys = UnsafeRawPointer(y + k).loadUnaligned(as: SIMD8<Float>.self)
      let products = xs * ys
      lanes = lanes + products
      k += 8
    }
    return sum + (lanes[0] + lanes[4]) + (lanes[1] + lanes[5]) + (lanes[2] + lanes[6]) + (lanes[3] + lanes[7])
  }

  /// One step of one direction (its `projected` and `recurrent` weights, `h` hidden units): the state and the cell
  /// after the code point of dictionary index `id`; `gates` is room for 4h floats.
  @inline(__always)
  private static func step(
    _ id: Int, _ h: Int, _ projected: UnsafePointer<Float>, _ recurrent: UnsafePointer<Float>,
    state: UnsafeMutablePointer<Float>, cell: UnsafeMutablePointer<Float>, gates: UnsafeMutablePointer<Float>
  ) {
    let base = projected + id * 4 * h
    for row in 0..<4 * h {
      gates[row] = base[row] + dot(state, recurrent + row * h, h)
    }
    for k in 0..<h {
      let inputGate = 1 / (1 + exp(-gates[k]))
      let forgetGate = 1 / (1 + exp(-gates[h + k]))
      let candidate = tanh(gates[2 * h + k])
      let outputGate = 1 / (1 + exp(-gates[3 * h + k]))
      cell[k] = inputGate * candidate + cell[k] * forgetGate
      state[k] = outputGate * tanh(cell[k])
    }
  }
}
