"""Server-drawn charts: scaled to a readable axis, broken where a week has no value."""
from metrics.display import dashboard_alerts, format_value, line_chart


def test_chart_breaks_the_line_where_a_week_has_no_value():
    points = [("2026-09-07", 0.1), ("2026-09-14", None), ("2026-09-21", 0.2), ("2026-09-28", 0.3)]
    chart = line_chart(points, [(0.15, "alert")], percent=True)
    assert len(chart.segments) == 2 and len(chart.dots) == 3
    assert [tick["text"] for tick in chart.y_ticks] == ["0 %", "25 %", "50 %"]
    assert chart.plot_left <= min(dot["x"] for dot in chart.dots) and max(dot["x"] for dot in chart.dots) <= chart.plot_right
    assert chart.lines[0]["kind"] == "alert" and chart.plot_bottom > chart.lines[0]["y"] > 0


def test_empty_chart_still_has_an_axis():
    chart = line_chart([("2026-09-07", None)] * 12, [], percent=False)
    assert chart.segments == [] and chart.dots == []
    assert [tick["text"] for tick in chart.y_ticks] == ["0", "0.5", "1"]


def test_format_value():
    assert format_value(None, True) == "—"
    assert format_value(0.125, True) == "12.5 %"
    assert format_value(6, False) == "6" and format_value(4.5, False) == "4.50"


def test_dashboard_alerts_only_for_out_of_band_metrics():
    current = {
        "unresolved_reference_rate": {"label": "Unresolved-reference rate", "value": 0.2, "target": "≤ 10%",
                                      "level": "alert"},
        "preference_supersession_rate": {"label": "Preference supersession rate", "value": 0.05,
                                         "target": "< 10%", "level": "ok"},
    }
    alerts = dashboard_alerts(current, drifted_count=2)
    assert [alert["title"] for alert in alerts] == ["Unresolved-reference rate", "Entity drift"]
    assert "20.0 %" in alerts[0]["text"] and "2 entities" in alerts[1]["text"]
