/* Stand-in for /usr/bin/python3.10: a static executable without libc, so that the sample's
   CMD names a program the image can start (CUV021) and the loader has nothing to resolve. */
void _start(void) {
    __asm__ volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
}
