//! Line layout of emitted sources: statements longer than the limit are broken after the
//! commas of their argument lists, continuation lines indented by eight more spaces.

/// The longest line an emitted source has (where a break is possible at all).
pub const MAX_LINE: usize = 150;

/// `src` with every line longer than `width` broken after argument commas.
pub fn wrap_long_lines(src: &str, width: usize) -> String {
    let mut out = String::with_capacity(src.len() + 64);
    for line in src.lines() {
        if line.chars().count() <= width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if is_comment(line) {
            for piece in break_comment(line, width) {
                out.push_str(&piece);
                out.push('\n');
            }
            continue;
        }
        for piece in break_line(line, width) {
            out.push_str(&piece);
            out.push('\n');
        }
    }
    out
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with('*') || t.starts_with("/*")
}

/// Breaks a long `//` or ` * ` comment line at spaces, each piece with the line's comment
/// marker; a word longer than a line (a JVM descriptor) is broken after a `;`, `(` or `)`.
fn break_comment(line: &str, width: usize) -> Vec<String> {
    let body_at = line.len() - line.trim_start().len();
    let marker_len = line[body_at..].find(' ').map_or(line.len() - body_at, |i| i + 1);
    let prefix = &line[..body_at + marker_len];
    let room = width.saturating_sub(prefix.chars().count()).max(20);
    let mut words: Vec<String> = Vec::new();
    for word in line[body_at + marker_len..].split(' ') {
        let mut w = word;
        while w.chars().count() > room {
            let head: String = w.chars().take(room).collect();
            let cut = head.rfind([';', '(', ')']).map_or(head.len(), |i| i + 1);
            words.push(w[..cut].to_string());
            w = &w[cut..];
        }
        words.push(w.to_string());
    }
    let mut pieces: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in words {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > room {
            pieces.push(format!("{prefix}{cur}").trim_end().to_string());
            cur.clear();
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&w);
    }
    pieces.push(format!("{prefix}{cur}").trim_end().to_string());
    pieces
}

/// Byte offsets just after the `, ` separators inside parentheses or braces and outside
/// string and character literals: where a line may break.
fn break_points(line: &str) -> Vec<usize> {
    let mut points = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let bytes = line.as_bytes();
    for (i, ch) in line.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == q {
                quote = None;
            }
            continue;
        }
        match ch {
            '"' | '\'' => quote = Some(ch),
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth > 0 && bytes.get(i + 1) == Some(&b' ') => points.push(i + 2),
            _ => {}
        }
    }
    points
}

/// Breaks one long line greedily: each piece as long as fits, broken at the last possible
/// point; a piece with no point that fits is broken at the first point after the limit.
fn break_line(line: &str, width: usize) -> Vec<String> {
    let indent = line.len() - line.trim_start().len();
    let cont = " ".repeat(indent + 8);
    let points = break_points(line);
    let mut pieces = Vec::new();
    let mut start = 0usize;
    let mut prefix = String::new();
    loop {
        let rest_len = prefix.len() + line[start..].chars().count();
        if rest_len <= width {
            break;
        }
        let room = width.saturating_sub(prefix.len());
        let fits = points.iter().copied().rev().find(|p| *p > start && line[start..*p].chars().count() <= room);
        let Some(cut) = fits.or_else(|| points.iter().copied().find(|p| *p > start)) else { break };
        pieces.push(format!("{prefix}{}", line[start..cut].trim_end()));
        start = cut;
        prefix = cont.clone();
    }
    pieces.push(format!("{prefix}{}", &line[start..]));
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_calls_break_after_commas_outside_strings() {
        let line = format!("        call(\"a, b\", {}, x);", "y".repeat(30));
        let out = wrap_long_lines(&line, 30);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            vec!["        call(\"a, b\",", &format!("                {},", "y".repeat(30)), "                x);"]
        );
        assert_eq!(wrap_long_lines("short\n", 30), "short\n");
    }

    #[test]
    fn long_comments_break_at_spaces_and_after_descriptor_separators() {
        let out = wrap_long_lines(&format!("     * {}", "word ".repeat(10)), 30);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines, vec!["     * word word word word", "     * word word word word", "     * word word"]);
        let desc = "// from a.B#m(La/very/long/Name;La/very/long/Other;)V with uber.";
        let out = wrap_long_lines(desc, 40);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines, vec!["// from a.B#m(La/very/long/Name;", "// La/very/long/Other;)V with uber."]);
        assert!(out.lines().all(|l| l.len() <= 40), "{out}");
    }
}
