Mary/NNP saw/VBD the/DT man/NN ./.
# comment
1\/2/CD cups/NNS
