//! How much text a result may carry, field by field, and which characters: every reader checks these
//! (`RunResult::check`, and a link's strings before any row is made), and wgsweep clips what it records
//! from others' words to them, so that a crafted link, file or publish
//! of long strings cannot grow the work of whoever shows it past what a real run gives, and cannot carry
//! characters that move a terminal's cursor or reorder the text around them. Sizes are bytes of UTF-8.

/// The bound on one kind of text: what it is, in words, the most bytes it may take and whether it may hold
/// line breaks and tabs (a compiler's messages do).
#[derive(Clone, Copy, Debug)]
pub struct TextBound {
    pub what: &'static str,
    pub bytes: usize,
    pub lines: bool,
}

/// A run's label: the page's field takes 200 characters (`gallery::MAX_LABEL_CHARS`), of up to 4 bytes each.
pub const LABEL: TextBound = TextBound { what: "the label", bytes: 800, lines: false };
/// A family's, a kernel's or a variant's name, a device's feature (a user's kernel of many passes or
/// long names is named by what fits).
pub const NAME: TextBound = TextBound { what: "a name", bytes: 256, lines: false };
/// A parameter's name or the text of its value (a user's kernel's size and tunables).
pub const PARAMETER: TextBound = TextBound { what: "a parameter's text", bytes: 512, lines: false };
/// An error, a reason a configuration was skipped or left unmeasured, or why a figure is suspect: long
/// enough for a compiler's message about a line of WGSL; longer ones are clipped where they are recorded.
pub const MESSAGE: TextBound = TextBound { what: "a message", bytes: 4096, lines: true };
/// One of the notes a reader must know to trust the figures.
pub const NOTE: TextBound = TextBound { what: "a note", bytes: 1024, lines: true };
/// What the device and the run's environment say of themselves: the adapter's names, driver and backend,
/// the browser's user agent, the tool and when the run began.
pub const DESCRIPTION: TextBound = TextBound { what: "a description", bytes: 512, lines: false };

/// The most notes a result holds (a run writes a few: capped sizes, a lost device, a cancellation).
pub const MAX_NOTES: usize = 32;
/// The most features and subgroup-matrix configurations a device's description lists (wgsweep records the
/// few it uses).
pub const MAX_FEATURES: usize = 32;

/// The most users' kernels a result carries, each its WGSL and specification (`spec::MAX_SOURCE_BYTES`).
pub const MAX_USER_KERNELS: usize = 16;

/// The longest any one string of a result may be: a link's strings are held to it before anything is built.
pub const LONGEST: TextBound = TextBound { what: "a string", bytes: MESSAGE.bytes, lines: true };

impl TextBound {
    /// Whether `text` keeps to the bound: says by how much it is too long, or which character it may not hold.
    pub fn check(&self, text: &str) -> Result<(), String> {
        let (what, most) = (self.what, self.bytes);
        if text.len() > most {
            let over = text.len() - most;
            return Err(format!("{what} takes {} bytes, {over} more than the {most} it may", text.len()));
        }
        match text.chars().find(|&c| self.refuses(c)) {
            Some(c) => Err(format!("{what} holds the character U+{:04X}, which moves or reorders text", c as u32)),
            None => Ok(()),
        }
    }

    fn refuses(&self, c: char) -> bool {
        (c.is_control() && !(self.lines && matches!(c, '\n' | '\t'))) || reorders(c)
    }

    /// `text` within the bound: its refused characters as their escapes (`\u{1b}`), and cut at a character's
    /// edge with "…" where it is still too long. For what wgsweep records from others' words (a compiler's
    /// or a driver's messages), so that its own results always keep to the bounds.
    pub fn clip(&self, text: &str) -> String {
        let mut kept: String = text
            .chars()
            .map(|c| if self.refuses(c) { c.escape_unicode().to_string() } else { c.to_string() })
            .collect();
        if kept.len() > self.bytes {
            let mut end = self.bytes - '…'.len_utf8();
            while !kept.is_char_boundary(end) {
                end -= 1;
            }
            kept.truncate(end);
            kept.push('…');
        }
        kept
    }
}

/// Adds `note` to a result's `notes`, clipped to its bound, unless it is there already (a run that went on on
/// a fresh device prepares its families' inputs again and notes them again); past `MAX_NOTES` the last says
/// that later ones were left out.
pub fn add_note(notes: &mut Vec<String>, note: &str) {
    let note = NOTE.clip(note);
    if notes.contains(&note) || notes.len() >= MAX_NOTES {
        return;
    }
    match notes.len() + 1 {
        MAX_NOTES => notes.push(format!("more notes were left out: a result keeps at most {MAX_NOTES}")),
        _ => notes.push(note),
    }
}

/// Characters that reorder the text around them: bidirectional marks, embeddings, overrides and isolates.
pub fn reorders(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}
