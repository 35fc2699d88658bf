//! A map of two parameters in plain SVG: the verdict of a sweep at each
//! grid point as a coloured cell, the parameter values along the axes, a
//! legend, and (when known) the synthesised set of parameter valuations
//! drawn over the cells as outlined regions.
//!
//! The cell of grid point (xᵢ, yⱼ) is centred on it and one step wide, so
//! a value v of the x parameter is at pixel `left + cell · (½ + (v − x₀)/Δx)`
//! (y grows upwards). The synthesised set is a union of convex polyhedra
//! over the two plotted parameters, each an intersection of half-planes
//! `c₁·x + c₂·y ⋈ r`; each is clipped to the plotted box by cutting the
//! box's rectangle with its half-planes one by one (Sutherland and
//! Hodgman). The clipping and the pixels use floating point: they decide
//! nothing but the picture; every exact value is in a `<title>` tooltip
//! and a `data-` attribute.

use num_traits::ToPrimitive;

use super::document::{Svg, num};
use crate::domain::poly::{Constraint, Q, Rel};

/// One plotted parameter: its name and its grid values, evenly spaced and
/// increasing.
pub struct Axis {
    pub name: String,
    pub values: Vec<Q>,
}

/// The synthesised set to draw over the cells.
pub struct Region {
    /// The set in kairos syntax, for the legend.
    pub text: String,
    /// Whether the set is exact (else the legend says it is approximated).
    pub exact: bool,
    /// The convex members, each as constraints over (x, y).
    pub members: Vec<Vec<Constraint>>,
}

/// What [`param_map`] draws.
pub struct ParamMap {
    pub caption: String,
    pub x: Axis,
    pub y: Axis,
    /// `verdicts[i][j]`: the verdict word at (`x.values[i]`, `y.values[j]`).
    pub verdicts: Vec<Vec<String>>,
    pub region: Option<Region>,
}

const MARGIN: f64 = 16.0;
/// Room left of the plot for the y values and the y name.
const LEFT: f64 = 90.0;
/// Where the plot starts, below the caption and the legend.
const TOP: f64 = 96.0;
/// Room below the plot for the x values and the x name.
const BOTTOM: f64 = 46.0;
/// The plot's largest side, in pixels.
const PLOT: f64 = 520.0;
const MIN_WIDTH: f64 = 640.0;

const STYLE: &str = "
text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 11px; fill: #222; }
.caption { font-size: 14px; font-weight: bold; }
.legend text { font-size: 10px; fill: #444; }
.tick { font-size: 10px; fill: #555; }
.axis-name { font-size: 12px; font-weight: bold; }
.cell rect { stroke: #ffffff; stroke-width: 0.5; }
.region path { fill: #1f4e8c; fill-opacity: 0.12; stroke: #1f4e8c; stroke-width: 2.5; stroke-linejoin: round; }
.frame { fill: none; stroke: #999; stroke-width: 0.8; }
";

/// The fill of a cell with this verdict.
pub fn colour(verdict: &str) -> &'static str {
    match verdict {
        "satisfied" => "#7fbf7f",
        "violated" => "#e08a80",
        "unknown" => "#c8c8c8",
        _ => "#555555",
    }
}

/// The verdict words in legend order.
const VERDICTS: [&str; 4] = ["satisfied", "violated", "unknown", "error"];

/// The SVG map of `map`.
pub fn param_map(map: &ParamMap) -> String {
    let (nx, ny) = (map.x.values.len().max(1), map.y.values.len().max(1));
    let cell = (PLOT / nx.max(ny) as f64).clamp(6.0, 48.0);
    let (plot_w, plot_h) = (cell * nx as f64, cell * ny as f64);
    let left = MARGIN + LEFT;
    let width = (left + plot_w + MARGIN).max(MIN_WIDTH);
    let mut svg = Svg::new(width, TOP + plot_h + BOTTOM, STYLE);
    svg.text("text", &[("class", "caption".into()), ("x", num(MARGIN)), ("y", "22".into())], &map.caption);
    legend(&mut svg, map);
    let x = Scale::new(&map.x.values, left, cell, false);
    let y = Scale::new(&map.y.values, TOP + plot_h, cell, true);
    svg.open("g", &[("class", "cells".into())]);
    for (i, xv) in map.x.values.iter().enumerate() {
        for (j, yv) in map.y.values.iter().enumerate() {
            let verdict = map.verdicts[i][j].as_str();
            let tip = format!("{} = {xv}, {} = {yv}: {verdict}", map.x.name, map.y.name);
            svg.open(
                "g",
                &[
                    ("class", "cell".into()),
                    ("data-x", xv.to_string()),
                    ("data-y", yv.to_string()),
                    ("data-verdict", verdict.into()),
                ],
            );
            svg.title(&tip);
            svg.leaf(
                "rect",
                &[
                    ("x", num(left + cell * i as f64)),
                    ("y", num(TOP + plot_h - cell * (j + 1) as f64)),
                    ("width", num(cell)),
                    ("height", num(cell)),
                    ("fill", colour(verdict).into()),
                ],
            );
            svg.close("g");
        }
    }
    svg.close("g");
    if let Some(region) = &map.region {
        draw_region(&mut svg, region, &x, &y);
    }
    svg.leaf(
        "rect",
        &[
            ("class", "frame".into()),
            ("x", num(left)),
            ("y", num(TOP)),
            ("width", num(plot_w)),
            ("height", num(plot_h)),
        ],
    );
    x_axis(&mut svg, &map.x, cell, left, TOP + plot_h);
    y_axis(&mut svg, &map.y, cell, left, TOP + plot_h);
    svg.finish()
}

/// A swatch per verdict, and what the outline is.
fn legend(svg: &mut Svg, map: &ParamMap) {
    svg.open("g", &[("class", "legend".into())]);
    let mut x = MARGIN;
    for v in VERDICTS {
        svg.leaf(
            "rect",
            &[
                ("class", "swatch".into()),
                ("data-verdict", v.into()),
                ("x", num(x)),
                ("y", "34".into()),
                ("width", "12".into()),
                ("height", "12".into()),
                ("fill", colour(v).into()),
            ],
        );
        svg.text("text", &[("x", num(x + 16.0)), ("y", "44".into())], v);
        x += 90.0;
    }
    let grid = format!(
        "One cell per grid point, centred on it: the concrete verdict at {} × {} points. Hover for exact values.",
        map.x.values.len(),
        map.y.values.len()
    );
    svg.text("text", &[("x", num(MARGIN)), ("y", "62".into())], &grid);
    if let Some(r) = &map.region {
        let how = if r.exact { "exact" } else { "approximated" };
        let line = format!("Outlined in blue: the synthesised set, {} ({how}).", r.text);
        svg.text("text", &[("x", num(MARGIN)), ("y", "76".into())], &line);
    }
    svg.close("g");
}

/// Parameter values to pixels along one axis.
struct Scale {
    first: f64,
    step: f64,
    /// The pixel of the first value's cell edge, and the cell size (negative
    /// upwards).
    origin: f64,
    cell: f64,
    /// The plotted range in parameter values: the cells' outer edges.
    lo: f64,
    hi: f64,
}

impl Scale {
    fn new(values: &[Q], origin: f64, cell: f64, upwards: bool) -> Self {
        let f = |q: &Q| q.to_f64().unwrap_or(0.0);
        let first = values.first().map_or(0.0, f);
        let last = values.last().map_or(0.0, f);
        let step = if values.len() > 1 { (last - first) / (values.len() - 1) as f64 } else { 1.0 };
        let cell = if upwards { -cell } else { cell };
        Scale { first, step, origin, cell, lo: first - step / 2.0, hi: last + step / 2.0 }
    }

    fn px(&self, v: f64) -> f64 {
        self.origin + self.cell * (0.5 + (v - self.first) / self.step)
    }
}

/// Each member clipped to the plotted box, as a closed path.
fn draw_region(svg: &mut Svg, region: &Region, x: &Scale, y: &Scale) {
    svg.open("g", &[("class", "region".into())]);
    svg.title(&region.text);
    for member in &region.members {
        let corners = [(x.lo, y.lo), (x.hi, y.lo), (x.hi, y.hi), (x.lo, y.hi)];
        let polygon = member.iter().fold(corners.to_vec(), |p, c| clip(&p, c));
        if polygon.is_empty() {
            continue;
        }
        let d: Vec<String> = polygon
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| format!("{}{},{}", if k == 0 { "M" } else { "L" }, num(x.px(a)), num(y.px(b))))
            .collect();
        svg.leaf("path", &[("d", format!("{} Z", d.join(" ")))]);
    }
    svg.close("g");
}

/// The part of the convex polygon `p` where `c` holds (its closure: a
/// strict boundary is drawn where it lies); an equality leaves the segment
/// where its line crosses `p`.
fn clip(p: &[(f64, f64)], c: &Constraint) -> Vec<(f64, f64)> {
    const EPS: f64 = 1e-9;
    let f = |q: &Q| q.to_f64().unwrap_or(0.0);
    let (a, b, r) = (f(&c.coeffs[0]), f(&c.coeffs[1]), f(&c.rhs));
    let slack = |&(x, y): &(f64, f64)| r - (a * x + b * y);
    let equality = c.rel == Rel::Eq;
    let inside = |s: f64| if equality { s.abs() <= EPS } else { s >= -EPS };
    let mut out: Vec<(f64, f64)> = Vec::new();
    for k in 0..p.len() {
        let (u, v) = (p[k], p[(k + 1) % p.len()]);
        let (su, sv) = (slack(&u), slack(&v));
        if inside(su) {
            out.push(u);
        }
        // The edge crosses the line strictly between its ends.
        if (su > EPS && sv < -EPS) || (su < -EPS && sv > EPS) {
            let t = su / (su - sv);
            out.push((u.0 + t * (v.0 - u.0), u.1 + t * (v.1 - u.1)));
        }
    }
    out.dedup_by(|x, y| (x.0 - y.0).abs() <= EPS && (x.1 - y.1).abs() <= EPS);
    out
}

/// The x values under the plot (every k-th when they would overlap) and
/// the x name.
fn x_axis(svg: &mut Svg, axis: &Axis, cell: f64, left: f64, bottom: f64) {
    let widest = axis.values.iter().map(|v| v.to_string().len()).max().unwrap_or(1) as f64;
    let every = ((widest * 6.5 + 6.0) / cell).ceil().max(1.0) as usize;
    svg.open("g", &[("class", "x-axis".into()), ("data-name", axis.name.clone())]);
    for (i, v) in axis.values.iter().enumerate().step_by(every) {
        let x = left + cell * (i as f64 + 0.5);
        let attrs =
            [("class", "tick".into()), ("x", num(x)), ("y", num(bottom + 14.0)), ("text-anchor", "middle".into())];
        svg.text("text", &attrs, &v.to_string());
    }
    let middle = left + cell * axis.values.len() as f64 / 2.0;
    let attrs = [
        ("class", "axis-name".into()),
        ("x", num(middle)),
        ("y", num(bottom + 34.0)),
        ("text-anchor", "middle".into()),
    ];
    svg.text("text", &attrs, &axis.name);
    svg.close("g");
}

/// The y values left of the plot (every k-th when they would overlap) and
/// the y name.
fn y_axis(svg: &mut Svg, axis: &Axis, cell: f64, left: f64, bottom: f64) {
    let every = (14.0 / cell).ceil().max(1.0) as usize;
    svg.open("g", &[("class", "y-axis".into()), ("data-name", axis.name.clone())]);
    for (j, v) in axis.values.iter().enumerate().step_by(every) {
        let y = bottom - cell * (j as f64 + 0.5) + 4.0;
        let attrs = [("class", "tick".into()), ("x", num(left - 6.0)), ("y", num(y)), ("text-anchor", "end".into())];
        svg.text("text", &attrs, &v.to_string());
    }
    let middle = bottom - cell * axis.values.len() as f64 / 2.0;
    // Turned a quarter, so that a long name stays inside the picture.
    let x = MARGIN + 12.0;
    let attrs = [
        ("class", "axis-name".into()),
        ("x", num(x)),
        ("y", num(middle)),
        ("text-anchor", "middle".into()),
        ("transform", format!("rotate(-90 {} {})", num(x), num(middle))),
    ];
    svg.text("text", &attrs, &axis.name);
    svg.close("g");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    #[test]
    fn a_half_plane_cuts_the_square_along_its_diagonal() {
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        // y > x: the triangle above the diagonal.
        let c = Constraint::new(vec![q(1), q(-1)], Rel::Lt, q(0));
        let t = clip(&square, &c);
        assert_eq!(t, vec![(0.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        // x <= 2 keeps the square; x >= 2 leaves nothing.
        assert_eq!(clip(&square, &Constraint::new(vec![q(1), q(0)], Rel::Le, q(2))), square.to_vec());
        assert!(clip(&square, &Constraint::new(vec![q(-1), q(0)], Rel::Le, q(-2))).is_empty());
        // x == 1/2: a segment across.
        let half = Q::new(1.into(), 2.into());
        assert_eq!(clip(&square, &Constraint::new(vec![q(1), q(0)], Rel::Eq, half)), vec![(0.5, 0.0), (0.5, 1.0)]);
    }

    #[test]
    fn cells_are_coloured_by_verdict_and_labelled_exactly() {
        let third = Q::new(1.into(), 3.into());
        let map = ParamMap {
            caption: "m".into(),
            x: Axis { name: "a".into(), values: vec![q(0), third.clone()] },
            y: Axis { name: "b".into(), values: vec![q(1)] },
            verdicts: vec![vec!["satisfied".into()], vec!["unknown".into()]],
            region: None,
        };
        let svg = param_map(&map);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        let cells: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("cell")).collect();
        assert_eq!(cells.len(), 2);
        assert_eq!(cells[1].attribute("data-x"), Some("1/3"));
        let fill = cells[1].children().find(|n| n.has_tag_name("rect")).unwrap().attribute("fill");
        assert_eq!(fill, Some(colour("unknown")));
    }
}
