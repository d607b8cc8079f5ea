package main

// The formats meshrig reads and writes register themselves.
import (
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
)
