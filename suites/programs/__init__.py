"""Programs: what a spec runs (expressions, recurrent and attention layers, models, collectives,
training), and its inputs."""
