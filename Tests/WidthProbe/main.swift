import Foundation

// Measures how many cells a terminal advances the cursor for each sample: run inside the terminal (tmux in
// the tests), it prints each line of the input file at the start of a cleared row, asks for the cursor
// position (DSR, ESC [ 6 n), and writes the column it reports, minus one, to the output file, a line per
// sample. Usage: WidthProbe SAMPLES OUTPUT
#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3, let input = try? String(contentsOfFile: arguments[1], encoding: .utf8) else {
  FileHandle.standardError.write(Data("usage: WidthProbe SAMPLES OUTPUT\n".utf8))
  exit(2)
}
let samples = input.split(separator: "\n", omittingEmptySubsequences: false).dropLast()

var original = termios()
tcgetattr(STDIN_FILENO, &original)
var raw = original
cfmakeraw(&raw)
tcsetattr(STDIN_FILENO, TCSANOW, &raw)

func write(_ text: String) {
  let bytes = Array(text.utf8)
  var written = 0
  while written < bytes.count {
    let count = bytes[written...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    if count <= 0 { break }
    written += count
  }
}

/// Reads the reply ESC [ row ; col R and returns col.
func readColumn() -> Int {
  var reply: [UInt8] = []
  var byte: UInt8 = 0
  while read(STDIN_FILENO, &byte, 1) == 1 {
    reply.append(byte)
    if byte == UInt8(ascii: "R") { break }
  }
  let text = String(decoding: reply, as: UTF8.self)
  guard let semicolon = text.lastIndex(of: ";") else { return -1 }
  return Int(text[text.index(after: semicolon)...].dropLast()) ?? -1
}

var results: [String] = []
for sample in samples {
  write("\r\u{1B}[2K" + sample + "\u{1B}[6n")
  results.append(String(readColumn() - 1))
}
tcsetattr(STDIN_FILENO, TCSANOW, &original)
try? (results.joined(separator: "\n") + "\n").write(toFile: arguments[2], atomically: true, encoding: .utf8)
write("\r\u{1B}[2Kdone\r\n")
