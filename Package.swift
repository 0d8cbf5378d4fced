// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Unfold",
  products: [
    .library(name: "Unfold", targets: ["Unfold"]),
    .executable(name: "unfold", targets: ["unfold"]),
  ],
  targets: [
    // Debian's cmark-gfm 0.29.0.gfm.6. Only Parse/MarkdownParser.swift imports it.
    .systemLibrary(
      name: "CCmarkGFM",
      pkgConfig: "libcmark-gfm",
      providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
    ),
    // Debian's HarfBuzz 6. Only Prepare/Fonts/HarfBuzzFont.swift imports it.
    .systemLibrary(
      name: "CHarfBuzz",
      pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]
    ),
    // Debian's FreeType 2.12, for WebKit's hinted advances. Only Prepare/Fonts/FreeTypeFont.swift imports it.
    .systemLibrary(
      name: "CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]
    ),
    // Debian's ICU 72, behind one C file: dictionary words and bidi levels. Only Prepare/Break/DictionaryBreaks.swift
    // (words) and Prepare/Unicode/Bidi.swift (bidi) import it, as scripts/check-dependencies.py checks.
    .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc")]),
    .target(name: "Unfold", dependencies: ["CCmarkGFM", "CHarfBuzz", "CFreeType", "CICU"]),
    .executableTarget(name: "unfold", dependencies: ["Unfold"]),
    // Generated inputs that the benchmark and the tests share: a seeded generator, cmark-gfm's slow inputs.
    .target(name: "UnfoldCorpus"),
    .executableTarget(name: "unfold-bench", dependencies: ["Unfold", "UnfoldCorpus"]),
    // The feed example: a static page of comments that fills any column, written by `swift run unfold-feed DIR`.
    .executableTarget(
      name: "unfold-feed", dependencies: ["Unfold"], path: "Examples/feed",
      exclude: ["README.md", "comments.txt", "screenshots"]),
    .target(name: "TestSupport", dependencies: ["Unfold", "UnfoldCorpus"], path: "Tests/TestSupport"),
    .testTarget(name: "UnfoldTests", dependencies: ["Unfold", "TestSupport", "UnfoldCorpus"]),
    .testTarget(name: "FixtureTests", dependencies: ["Unfold", "TestSupport"]),
    // Reports the cells a real terminal advances for each sample (run in tmux by the terminal tests).
    .executableTarget(name: "WidthProbe", path: "Tests/WidthProbe"),
    .testTarget(name: "EndToEndTests", dependencies: ["unfold", "WidthProbe", "TestSupport"]),
    .testTarget(name: "BrowserTests", dependencies: ["Unfold", "TestSupport", "UnfoldCorpus", "unfold-feed"]),
  ],
  swiftLanguageModes: [.v6]
)
