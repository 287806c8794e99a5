module github.com/iggywire/iggywire

go 1.22

require (
	github.com/AdaLogics/go-fuzz-headers v0.0.0-20240806141605-e8a1dd7889d6
	github.com/davecgh/go-spew v1.1.1
	github.com/google/go-cmp v0.7.0
	github.com/kr/pretty v0.3.1
	github.com/leanovate/gopter v0.2.11
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/kr/text v0.2.0 // indirect
	github.com/rogpeppe/go-internal v1.9.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
