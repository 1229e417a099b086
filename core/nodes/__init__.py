"""The run graph's node and its typed data (see core/nodes/node.py): below the engine, the run
store and the console, which all read this one type."""
