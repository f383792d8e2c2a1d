__libc_start_call_main (2,001 samples, 99.55%) 10.6 53 1174.7 15.0
all (2,010 samples, 100%) 10.0 85 1180.0 15.0
getppid_n (2,002 samples, 99.60%) 10.6 69 1175.3 15.0
syscall (2,001 samples, 99.55%) 10.6 37 1174.7 15.0
