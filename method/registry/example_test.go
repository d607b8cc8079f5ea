package registry_test

import (
	"fmt"

	"github.com/meshrig/meshrig/method/registry"
)

func ExampleAnimation() {
	e, err := registry.Animation("le-deng-2014") // an alias
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Name, "—", e.Paper)
	_, err = registry.Animation("dembones")
	fmt.Println(err)
	// Output:
	// ledeng — Le & Deng 2014
	// unknown method "dembones" (available: ledeng, face-clustering, spectral)
}
