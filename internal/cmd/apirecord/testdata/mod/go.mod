module example.com/apitest

go 1.22
