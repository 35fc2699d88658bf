//! The SVG document writer: elements with attributes, every text and
//! attribute value escaped here and nowhere else, numbers printed with one
//! decimal so that the same trace gives the same bytes on every machine.

use std::fmt::Write;

/// An SVG document under construction, indented two spaces per level.
pub struct Svg {
    out: String,
    depth: usize,
}

/// `&`, `<`, `>`, `"` and `'` as XML entities.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// A coordinate: one decimal, without a trailing `.0` or a `-0`.
pub fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s);
    if s == "-0" { "0".into() } else { s.to_string() }
}

impl Svg {
    /// The root element, `width` by `height` pixels, with the style sheet.
    pub fn new(width: f64, height: f64, style: &str) -> Self {
        let mut svg = Svg { out: String::new(), depth: 0 };
        let (w, h) = (num(width), num(height));
        svg.open(
            "svg",
            &[
                ("xmlns", "http://www.w3.org/2000/svg".into()),
                ("width", w.clone()),
                ("height", h.clone()),
                ("viewBox", format!("0 0 {w} {h}")),
            ],
        );
        svg.text("style", &[], style);
        svg
    }

    fn start(&mut self, name: &str, attrs: &[(&str, String)]) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            let _ = write!(self.out, " {k}=\"{}\"", escape(v));
        }
    }

    /// `<name attrs>`; children follow until [`Svg::close`].
    pub fn open(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.start(name, attrs);
        self.out.push_str(">\n");
        self.depth += 1;
    }

    pub fn close(&mut self, name: &str) {
        self.depth -= 1;
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        let _ = writeln!(self.out, "</{name}>");
    }

    /// `<name attrs/>`.
    pub fn leaf(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.start(name, attrs);
        self.out.push_str("/>\n");
    }

    /// `<name attrs>text</name>`.
    pub fn text(&mut self, name: &str, attrs: &[(&str, String)], text: &str) {
        self.start(name, attrs);
        let _ = writeln!(self.out, ">{}</{name}>", escape(text));
    }

    /// A tooltip for the enclosing element.
    pub fn title(&mut self, text: &str) {
        self.text("title", &[], text);
    }

    /// `<name attrs><title>tip</title></name>`: a shape with its tooltip.
    pub fn with_title(&mut self, name: &str, attrs: &[(&str, String)], tip: &str) {
        self.open(name, attrs);
        self.title(tip);
        self.close(name);
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.close("svg");
        debug_assert_eq!(self.depth, 0, "every element closed");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut svg = Svg::new(10.0, 5.0, "");
        svg.text("text", &[("data-x", "a\"<b>'&".into())], "x < 3 && y > 2");
        let out = svg.finish();
        assert!(out.contains("data-x=\"a&quot;&lt;b&gt;&apos;&amp;\""));
        assert!(out.contains(">x &lt; 3 &amp;&amp; y &gt; 2</text>"));
        let doc = roxmltree::Document::parse(&out).expect("well-formed");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }

    #[test]
    fn numbers_have_one_decimal_at_most() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.26), "2.3");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(7.04), "7");
    }
}
