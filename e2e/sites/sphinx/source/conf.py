project = 'Acme Widgets'
html_theme = 'alabaster'
extensions = []
