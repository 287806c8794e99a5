package main

// connSeeds and clientSeeds are filled in by the lifecycle targets' seeds.
func connSeeds() []Seed   { return nil }
func clientSeeds() []Seed { return nil }
