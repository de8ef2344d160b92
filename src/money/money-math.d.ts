declare module 'money-math' {
  const moneyMath: {
    add(a: string, b: string): string;
    subtract(a: string, b: string): string;
    mul(a: string, b: string): string;
    div(a: string, b: string): string;
    percent(a: string, b: string): string;
    cmp(a: string, b: string): number;
    isZero(a: string): boolean;
    isNegative(a: string): boolean;
    isPositive(a: string): boolean;
    floatToAmount(f: number): string;
  };
  export default moneyMath;
}
