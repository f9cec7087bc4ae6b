"""The release digest: when the watched repository publishes a release, a `releases`
subscriber gets the work merged since the release before it, by vendor and area."""
