/// The browser engine whose line breaking an HTML fragment is predicted for.
///
/// Each engine breaks lines by its own tailoring of UAX #14 and decides with its own arithmetic whether a line
/// fits; ``any`` predicts lines that hold in all three (see the HTML output article).
public enum BrowserEngine: String, Hashable, Sendable, CaseIterable {
  /// Blink: Chrome, Edge, Opera, Samsung Internet.
  case blink
  /// Gecko: Firefox.
  case gecko
  /// WebKit: Safari, and every browser on iOS.
  case webkit
  /// Unknown: a fragment that every engine shows as predicted.
  case any

  /// The three engines.
  public static let engines: [BrowserEngine] = [.blink, .gecko, .webkit]

  /// The engine of a browser's `User-Agent` header; ``any`` when it names none that is known.
  ///
  /// Every browser on iOS and iPadOS is WebKit, whatever it calls itself (`CriOS`, `FxiOS`, `EdgiOS`);
  /// an iPad that asks for desktop pages sends a Mac's agent, which is WebKit too.
  public init(userAgent: String) {
    let agent = userAgent.lowercased()
    func has(_ word: String) -> Bool { agent.contains(word) }
    if has("iphone") || has("ipad") || has("ipod") || has("crios") || has("fxios") || has("edgios") {
      self = .webkit
    } else if has("gecko/") && has("firefox/") && !has("like gecko") {
      self = .gecko
    } else if has("chrome/") || has("chromium/") || has("headlesschrome/") || has("edg/") || has("opr/")
      || has("samsungbrowser/")
    {
      self = .blink
    } else if has("applewebkit/") && has("safari/") {
      self = .webkit
    } else {
      self = .any
    }
  }
}
