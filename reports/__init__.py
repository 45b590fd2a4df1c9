"""The report builder: result JSON lines in, one self-contained HTML page out. It never re-runs
anything. Usage: python -m reports build RESULTS_DIR... -o reports/out"""
