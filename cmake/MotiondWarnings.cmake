# Project code builds with -Wall -Wextra -Werror; generated protobuf code
# does not (it is not ours to fix).
function(motiond_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()
