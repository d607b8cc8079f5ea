module github.com/meshrig/meshrig

go 1.26
