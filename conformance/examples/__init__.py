"""Example adapters: engines that reproduce real, fixed bugs of Iceberg implementations."""
