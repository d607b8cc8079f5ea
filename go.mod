module github.com/meshrig/meshrig

go 1.26

require (
	github.com/qmuntal/gltf v0.29.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
