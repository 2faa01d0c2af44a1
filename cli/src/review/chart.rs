//! The review chart: Black's win rate (left axis) and score lead (right
//! axis) after every move, mistakes marked, as an SVG file.

use super::Review;
use kosumi::board::Color as Stone;
use plotters::prelude::*;
use std::path::Path;

const BLUE: RGBColor = RGBColor(31, 100, 180);
const ORANGE: RGBColor = RGBColor(220, 110, 20);
const GREY: RGBColor = RGBColor(150, 150, 150);

/// Draws the chart of `r` into `path`.
pub fn draw(r: &Review, path: &Path) -> anyhow::Result<()> {
    let n = r.black.len().saturating_sub(1).max(1) as i32;
    // Black's view after each move, as the move comments give it.
    let series: Vec<(f64, f64)> = r.black[..1]
        .iter()
        .copied()
        .chain(r.moves.iter().map(|m| m.after))
        .collect();
    let max_lead = series
        .iter()
        .map(|b| b.1.abs())
        .fold(10.0f64, f64::max)
        .ceil();
    let root = SVGBackend::new(path, (960, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = match (&r.record.black_name, &r.record.white_name) {
        (Some(b), Some(w)) => format!("{b} (B) - {w} (W): kosumi review, {}", r.effort),
        _ => format!("kosumi review, {}", r.effort),
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .right_y_label_area_size(56)
        .build_cartesian_2d(0..n, 0.0..100.0)?
        .set_secondary_coord(0..n, -max_lead..max_lead);
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("Black's win rate (%)")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc("score lead (points, + for Black)")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 16))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(0, 50.0), (n, 50.0)],
        GREY.stroke_width(1),
    ))?;
    chart
        .draw_series(LineSeries::new(
            r.black
                .iter()
                .enumerate()
                .map(|(i, b)| (i as i32, b.0 * 100.0)),
            BLUE.stroke_width(2),
        ))?
        .label("Black's win rate")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    chart
        .draw_secondary_series(LineSeries::new(
            series.iter().enumerate().map(|(i, b)| (i as i32, b.1)),
            ORANGE.stroke_width(1),
        ))?
        .label("score lead")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], ORANGE.stroke_width(1)));
    // Mistakes: a dot on the win-rate line after the move, filled for Black's.
    chart
        .draw_series(r.moves.iter().filter(|m| m.mistake).map(|m| {
            let style = if m.color == Stone::Black {
                BLACK.filled()
            } else {
                BLACK.stroke_width(1)
            };
            Circle::new((m.number as i32, m.after.0 * 100.0), 4, style)
        }))?
        .label("mistakes (filled: Black's)")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, BLACK.filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(GREY)
        .label_font(("sans-serif", 16))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}
