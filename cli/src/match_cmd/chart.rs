//! The match chart (SVG, drawn with plotters): the first engine's score
//! after each game with its 95% interval, so one sees how the result
//! settled.

use std::path::Path;

use plotters::prelude::*;

use super::results::GameSummary;
use super::stats::score_interval;
use super::summary::tally_for;

/// Score and 95% interval of engine 1 after each of `games` (in game order).
pub(super) fn score_series(games: &[GameSummary]) -> Vec<(f64, f64, f64)> {
    (1..=games.len())
        .filter_map(|n| {
            let t = tally_for(&games[..n], 0, None);
            let (lo, hi) = score_interval(&t)?;
            Some((t.score()?, lo, hi))
        })
        .collect()
}

/// Writes the chart of `games` (engine names in `--engine` order) to `path`.
pub(super) fn write_chart(
    path: &Path,
    names: &[String; 2],
    games: &[GameSummary],
) -> anyhow::Result<()> {
    let series = score_series(games);
    let n = series.len().max(1) as f64;
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{} against {}: score after each game", names[0], names[1]),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..n + 0.5, 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc(format!("{} score (%)", names[0]))
        .draw()?;
    let at = |i: usize| (i + 1) as f64;
    let band: Vec<(f64, f64)> = series
        .iter()
        .enumerate()
        .map(|(i, s)| (at(i), 100.0 * s.2))
        .chain(
            series
                .iter()
                .enumerate()
                .rev()
                .map(|(i, s)| (at(i), 100.0 * s.1)),
        )
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.15))))?
        .label("95% interval")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], BLUE.mix(0.15).filled()));
    chart
        .draw_series(LineSeries::new(
            series.iter().enumerate().map(|(i, s)| (at(i), 100.0 * s.0)),
            BLUE.stroke_width(2),
        ))?
        .label("score")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
    chart.draw_series(LineSeries::new(
        [(0.0, 50.0), (n + 0.5, 50.0)],
        BLACK.mix(0.4),
    ))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .draw()?;
    root.present()?;
    Ok(())
}
