"""C&C Trading Card Game (placeholder until the engine lands)."""
