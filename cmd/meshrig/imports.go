package main

// The formats meshrig reads and writes register themselves.
import (
	_ "github.com/meshrig/meshrig/format/abc"
	_ "github.com/meshrig/meshrig/format/collada"
	_ "github.com/meshrig/meshrig/format/fbx"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/libigl"
	_ "github.com/meshrig/meshrig/format/mdd"
	_ "github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/off"
	_ "github.com/meshrig/meshrig/format/pc2"
	_ "github.com/meshrig/meshrig/format/usd"
)
