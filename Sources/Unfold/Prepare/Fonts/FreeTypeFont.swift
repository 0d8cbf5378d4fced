internal import CFreeType
import Foundation
import Synchronization

/// One face of a font file in FreeType, for its hinted advances: the width WebKitGTK lays a glyph out with at a
/// device scale of 1 (its glyph loaded with the font's hinting, `FT_LOAD_DEFAULT`, the advance in 1/64 px).
///
/// The only file that imports FreeType: nothing of it leaves here but advances. The face is opened on first use
/// (most faces of a fallback chain never are), and every call holds one lock: FreeType's faces are not safe to
/// share between threads, and only the WebKit profile asks.
final class FreeTypeFont: Sendable {
  private struct State: ~Copyable {
    var library: FT_Library?
    var face: FT_Face?
    var failed = false
    /// The hinted advance of each glyph asked for, per size in 1/64 px.
    var advances: [Int: [Int32: Int]] = [:]
    /// The size the face is set to, in 1/64 px: setting it again runs the font's control value program again,
    /// whose interpreting was nearly all of hinting an advance (129 M instructions for the ASCII of five faces).
    var size: Int?
  }

  private let data: Data
  private let index: Int
  private let state = Mutex(State())

  /// The face `index` of a font file's bytes (kept, not copied: a mapped file stays mapped).
  init(data: Data, index: Int) {
    self.data = data
    self.index = index
  }

  deinit {
    state.withLock { state in
      if let face = state.face { FT_Done_Face(face) }
      if let library = state.library { FT_Done_FreeType(library) }
    }
  }

  /// The hinted advance of `glyph` at `size` px, in 1/64 px; `nil` when FreeType cannot load the face or the glyph.
  func hintedAdvance(ofGlyph glyph: Int, size: Double) -> Int? {
    let size64 = Int(size * 64)
    return state.withLock { state -> Int? in
      if let known = state.advances[size64]?[Int32(glyph)] { return known }
      guard let face = Self.open(&state, data: data, index: index) else { return nil }
      if state.size != size64 {
        guard FT_Set_Char_Size(face, FT_F26Dot6(size64), 0, 72, 72) == 0 else { return nil }
        state.size = size64
      }
      guard FT_Load_Glyph(face, FT_UInt(glyph), Int32(FT_LOAD_DEFAULT)) == 0 else { return nil }
      let advance = Int(face.pointee.glyph.pointee.advance.x)
      state.advances[size64, default: [:]][Int32(glyph)] = advance
      return advance
    }
  }

  private static func open(_ state: inout State, data: Data, index: Int) -> FT_Face? {
    if let face = state.face { return face }
    guard !state.failed else { return nil }
    state.failed = true
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return nil }
    state.library = library
    var face: FT_Face?
    let opened = data.withUnsafeBytes { bytes -> Bool in
      guard let base = bytes.baseAddress else { return false }
      // The bytes outlive the face: `data` is the face's own, kept by this object.
      return FT_New_Memory_Face(
        library, base.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count), FT_Long(index), &face) == 0
    }
    guard opened, let face else { return nil }
    state.face = face
    state.failed = false
    return face
  }
}
