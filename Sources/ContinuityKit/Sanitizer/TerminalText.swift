/// Makes stored text safe to print to a terminal. (Stub.)
public enum TerminalText {
  /// Replaces ESC-introduced sequences (CSI, OSC, …), C1 controls and other C0 controls except
  /// `\n` and `\t` with visible placeholders, so printed text cannot drive the terminal.
  public static func inert(_ text: String) -> String { text }
}
